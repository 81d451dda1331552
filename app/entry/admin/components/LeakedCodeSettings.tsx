import { Card, Checkbox, FormLayout, Layout, TextField } from "@shopify/polaris";
import type { SettingsView } from "../settings.server";

interface Props {
  values: Pick<SettingsView, "leakThreshold" | "leakWindowDays" | "leakHold">;
  onChange<K extends "leakThreshold" | "leakWindowDays" | "leakHold">(key: K, value: SettingsView[K]): void;
  errors: Record<string, string | undefined>;
}

/** Leaked codes (decision 036): when a referral coupon counts as leaked, and whether its commissions wait for the merchant. */
export function LeakedCodeSettings({ values, onChange, errors }: Props) {
  const threshold = values.leakThreshold.trim();
  const on = threshold !== "" && threshold !== "0";
  return (
    <Layout.AnnotatedSection
      id="leaked-codes"
      title="Leaked codes"
      description="A referral coupon posted on a coupon site is used by many buyers who never came through the ambassador's link. The app flags such a code on the ambassador's page and on its commissions."
    >
      <Card>
        <FormLayout>
          <FormLayout.Group>
            <TextField
              label="Buyers without a link before a code is flagged"
              type="number"
              min={1}
              max={1000}
              value={values.leakThreshold}
              onChange={(value) => onChange("leakThreshold", value)}
              autoComplete="off"
              placeholder="Off"
              helpText={
                on
                  ? `A code is flagged once more than ${threshold} different buyers use it without the ambassador's link within ${values.leakWindowDays.trim() || "the"} days. Each buyer counts once.`
                  : "Off: no code is flagged. Enter a number of buyers (5 is the default) to watch for leaks."
              }
              error={errors.leakThreshold}
            />
            <TextField
              label="Within"
              type="number"
              min={1}
              max={90}
              suffix="days"
              value={values.leakWindowDays}
              onChange={(value) => onChange("leakWindowDays", value)}
              autoComplete="off"
              error={errors.leakWindowDays}
            />
          </FormLayout.Group>
          <Checkbox
            label="Hold a leaked code's commissions for my review"
            helpText="When on, the commissions a flagged code earns without a link, from the first buyer of the days that flagged it, are not approved on their own (nor by the review window): you approve or deny them in Commissions."
            checked={values.leakHold}
            onChange={(value) => onChange("leakHold", value)}
            error={errors.leakHold}
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
