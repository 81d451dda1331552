import { BlockStack, Card, FormLayout, Layout, Select, Text, TextField } from "@shopify/polaris";
import type { SettingsView } from "../settings.server";
import { choicesOf, GUARD_MODE_WORDS, guardField } from "../settings-options";
import { GUARD_LABELS, GUARD_RULES, type GuardMode, type GuardRule } from "../../../domains/referrals/guard-settings";

interface Props {
  guard: SettingsView["guard"];
  dailyLimit: string;
  onModeChange(rule: GuardRule, mode: GuardMode): void;
  onDailyLimitChange(value: string): void;
  errors: Record<string, string | undefined>;
}

const MODE_OPTIONS = choicesOf(GUARD_MODE_WORDS).map(({ value, label }) => ({ value, label }));

/** The referral guard's rules, checked before an order is sent: what each one does when it matches. */
export function GuardSettings({ guard, dailyLimit, onModeChange, onDailyLimitChange, errors }: Props) {
  return (
    <Layout.AnnotatedSection
      id="guard"
      title="Referral guard"
      description="Checks each referred order before it is recorded: people referring themselves, and more orders than usual from one place. Flagged orders are recorded as pending with the reason; blocked ones are not recorded."
    >
      <Card>
        <BlockStack gap="400">
          <FormLayout>
            {GUARD_RULES.map((rule) => (
              <Select
                key={rule}
                label={GUARD_LABELS[rule]}
                options={MODE_OPTIONS}
                value={guard[rule]}
                onChange={(value) => onModeChange(rule, value as GuardMode)}
                helpText={GUARD_MODE_WORDS[guard[rule]].helpText}
                error={errors[guardField(rule)]}
              />
            ))}
            <TextField
              label="Referred orders a day before the two daily rules apply"
              type="number"
              min={1}
              max={1000}
              value={dailyLimit}
              onChange={onDailyLimitChange}
              autoComplete="off"
              error={errors.guardDailyLimit}
            />
          </FormLayout>
          <Text as="p" variant="bodySm" tone="subdued">
            Each order's Activity entry shows what every rule found.
          </Text>
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}
