import { Form, useNavigation, useSubmit } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Card,
  Checkbox,
  ChoiceList,
  Divider,
  FormLayout,
  InlineStack,
  Layout,
  Link,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import type { CampaignView } from "../campaigns.server";
import type { SettingsView } from "../settings.server";
import {
  APPROVAL_WORDS,
  choicesOf,
  guardField,
  REVENUE_WORDS,
  SCOPE_WORDS,
  TEST_ORDER_WORDS,
  TRIGGER_WORDS,
} from "../settings-options";
import { GUARD_RULES } from "../../../domains/referrals/guard-settings";
import { ContextualSaveBar } from "./ContextualSaveBar";
import { useEmbeddedHref } from "./embedded-url";
import { GuardSettings } from "./GuardSettings";
import { LeakedCodeSettings } from "./LeakedCodeSettings";

export interface SettingsFeedback {
  ok: boolean;
  fieldErrors?: Record<string, string>;
  resumedJobs?: number;
  trackedCampaigns?: number;
}

interface Props {
  settings: SettingsView;
  /** null when the program isn't connected or couldn't be read. */
  campaigns: CampaignView[] | null;
  groups: { id: string; name: string; isDefault: boolean }[] | null;
  feedback?: SettingsFeedback;
}

function campaignLabel(c: CampaignView) {
  return (
    <InlineStack gap="200" blockAlign="center">
      <Text as="span" fontWeight="medium">
        {c.name}
      </Text>
      {c.sandbox ? <Badge tone="info">Sandbox</Badge> : null}
      {c.private ? <Badge>Private</Badge> : null}
    </InlineStack>
  );
}

/** The order pipeline and storefront settings, saved together. */
export function SettingsForm({ settings, campaigns, groups, feedback }: Props) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const href = useEmbeddedHref();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save-settings";
  const [values, setValues] = useState(settings);
  const stored = JSON.stringify(settings);
  // After a save (or any reload of the page's data) the form shows what is stored.
  useEffect(() => setValues(JSON.parse(stored) as SettingsView), [stored]);
  const set =
    <K extends keyof SettingsView>(key: K) =>
    (value: SettingsView[K]) =>
      setValues((v) => ({ ...v, [key]: value }));
  const first = <T,>(list: T[]) => list[0]!;
  const errors = feedback?.ok === false ? feedback.fieldErrors ?? {} : {};
  const dirty = JSON.stringify(values) !== stored;

  const campaignChoices = (campaigns ?? []).map((c) => ({
    value: c.uid,
    label: campaignLabel(c),
    helpText: `First order: ${c.initialReward}. Later orders: ${c.recurringReward}.`,
  }));
  const inactiveTracked = values.campaignUids.filter((uid) => campaigns && !campaigns.some((c) => c.uid === uid));

  return (
    <Form method="post" aria-label="Order tracking and storefront settings" ref={form}>
      <ContextualSaveBar
        id="settings-save-bar"
        dirty={dirty}
        saving={saving}
        onSave={() => form.current && submit(form.current)}
        onDiscard={() => setValues(JSON.parse(stored) as SettingsView)}
      />
      <input type="hidden" name="intent" value="save-settings" />
      {values.campaignUids.map((uid) => (
        <input key={uid} type="hidden" name="campaignUids" value={uid} />
      ))}
      <input type="hidden" name="trigger" value={values.trigger} />
      <input type="hidden" name="scope" value={values.scope} />
      <input type="hidden" name="approval" value={values.approval} />
      <input type="hidden" name="revenueBasis" value={values.revenueBasis} />
      <input type="hidden" name="codeParams" value={values.codeParams} />
      <input type="hidden" name="testOrders" value={values.testOrders} />
      <input type="hidden" name="autoEnrol" value={String(values.autoEnrol)} />
      <input type="hidden" name="newAmbassadorGroup" value={values.newAmbassadorGroup} />
      {GUARD_RULES.map((rule) => (
        <input key={rule} type="hidden" name={guardField(rule)} value={values.guard[rule]} />
      ))}
      <input type="hidden" name="guardDailyLimit" value={values.guardDailyLimit} />
      <input type="hidden" name="flowTriggers" value={String(values.flowTriggers)} />
      <input type="hidden" name="reviewWindowDays" value={values.reviewWindowDays} />
      <input type="hidden" name="renewalRuleKind" value={values.renewalRuleKind} />
      <input type="hidden" name="leakThreshold" value={values.leakThreshold} />
      <input type="hidden" name="leakWindowDays" value={values.leakWindowDays} />
      <input type="hidden" name="leakHold" value={String(values.leakHold)} />
      <input type="hidden" name="renewalRuleName" value={values.renewalRuleKind === "none" ? "" : values.renewalRuleName} />

      <Layout>
        <Layout.AnnotatedSection
          id="tracking"
          title="Order tracking"
          description="Which orders are sent to your referral program, and how their commissions start."
        >
          <Card>
            <BlockStack gap="400">
              {feedback?.ok ? (
                <Banner tone="success" title="Settings saved">
                  <Text as="p">
                    {feedback.trackedCampaigns
                      ? `Orders are recorded in ${
                          feedback.trackedCampaigns === 1 ? "1 campaign" : `${feedback.trackedCampaigns} campaigns`
                        }.`
                      : "No campaign is tracked, so orders are held until you choose one."}
                    {feedback.resumedJobs ? ` ${feedback.resumedJobs} held orders are being sent now.` : ""}
                  </Text>
                </Banner>
              ) : null}
              {errors.form ? <Banner tone="critical" title={errors.form} /> : null}
              {campaigns === null ? (
                <Banner tone="info" title="Campaigns appear once your program is connected">
                  <Text as="p">Connect above; the active campaigns of your program are listed here to choose from.</Text>
                </Banner>
              ) : campaigns.length === 0 ? (
                <Banner tone="warning" title="Your program has no active campaign">
                  <Text as="p">Create or activate a campaign in your referral program, then reload this page.</Text>
                </Banner>
              ) : (
                <BlockStack gap="200">
                  <ChoiceList
                    title="Campaigns to record orders in"
                    allowMultiple
                    choices={campaignChoices}
                    selected={values.campaignUids}
                    onChange={set("campaignUids")}
                    error={errors.campaignUids}
                  />
                  {values.campaignUids.length === 0 ? (
                    <Text as="p" tone="caution">
                      Choose at least one campaign: until then, referred orders are held and nothing is recorded.
                    </Text>
                  ) : null}
                  {inactiveTracked.length > 0 ? (
                    <Text as="p" tone="critical">
                      Campaign {inactiveTracked.join(", ")} is tracked but no longer active. Untick it to save.
                    </Text>
                  ) : null}
                  <Text as="p" variant="bodySm" tone="subdued">
                    Rewards and dates of each campaign are on the <Link url={href("/app/campaigns")}>Campaigns</Link> page.
                  </Text>
                </BlockStack>
              )}
              <Divider />
              <ChoiceList
                title="Record an order"
                choices={choicesOf(TRIGGER_WORDS)}
                selected={[values.trigger]}
                onChange={(v) => set("trigger")(first(v) as SettingsView["trigger"])}
                error={errors.trigger}
              />
              <ChoiceList
                title="Orders to send"
                choices={choicesOf(SCOPE_WORDS)}
                selected={[values.scope]}
                onChange={(v) => set("scope")(first(v) as SettingsView["scope"])}
                error={errors.scope}
              />
              <Divider />
              <FormLayout>
                <FormLayout.Group>
                  <Select
                    label="New commissions start"
                    options={choicesOf(APPROVAL_WORDS).map(({ value, label }) => ({ value, label }))}
                    value={values.approval}
                    onChange={(v) => set("approval")(v as SettingsView["approval"])}
                    helpText={APPROVAL_WORDS[values.approval].helpText}
                    error={errors.approval}
                  />
                  <Select
                    label="Revenue sent"
                    options={choicesOf(REVENUE_WORDS).map(({ value, label }) => ({ value, label }))}
                    value={values.revenueBasis}
                    onChange={(v) => set("revenueBasis")(v as SettingsView["revenueBasis"])}
                    helpText={REVENUE_WORDS[values.revenueBasis].helpText}
                    error={errors.revenueBasis}
                  />
                </FormLayout.Group>
                <TextField
                  label="Review window"
                  type="number"
                  min={1}
                  max={365}
                  suffix="days"
                  value={values.reviewWindowDays}
                  onChange={set("reviewWindowDays")}
                  autoComplete="off"
                  placeholder="Off"
                  helpText={
                    values.reviewWindowDays.trim() && values.reviewWindowDays.trim() !== "0"
                      ? `A pending commission approves itself ${values.reviewWindowDays.trim()} days after its order, unless the order is refunded, cancelled or denied meanwhile, the referral guard flagged it, or its code leaked and is held.`
                      : "Off: pending commissions wait for you. Enter a number of days (for example 30, your return period) to approve them on their own when that time has passed."
                  }
                  error={errors.reviewWindowDays}
                />
                <FormLayout.Group>
                  <Select
                    label="Your renewal signal"
                    options={[
                      { value: "none", label: "None (the known subscription apps only)" },
                      { value: "tag", label: "An order tag" },
                      { value: "attribute", label: "A note attribute" },
                    ]}
                    value={values.renewalRuleKind}
                    onChange={(v) => set("renewalRuleKind")(v as SettingsView["renewalRuleKind"])}
                    helpText="Orders carrying it count as subscription renewals, besides Shopify's subscription source and the tags and attributes of Recharge and Skio."
                    error={errors.renewalRuleKind}
                  />
                  {values.renewalRuleKind === "none" ? null : (
                    <TextField
                      label={values.renewalRuleKind === "tag" ? "Renewal tag" : "Renewal note attribute"}
                      value={values.renewalRuleName}
                      onChange={set("renewalRuleName")}
                      autoComplete="off"
                      helpText={values.renewalRuleKind === "tag" ? "The tag exactly as your subscription app writes it (case does not matter)." : "The attribute's name; any value that is not empty counts."}
                      error={errors.renewalRuleName}
                    />
                  )}
                </FormLayout.Group>
                <TextField
                  label="Link parameters with the referral code"
                  value={values.codeParams}
                  onChange={set("codeParams")}
                  autoComplete="off"
                  helpText="Query parameter names of your share links, separated by commas. The code is read from the landing page address when the cart has none."
                  error={errors.codeParams}
                />
                <ChoiceList
                  title="Test orders"
                  choices={choicesOf(TEST_ORDER_WORDS)}
                  selected={[values.testOrders]}
                  onChange={(v) => set("testOrders")(first(v) as SettingsView["testOrders"])}
                  error={errors.testOrders}
                />
              </FormLayout>
            </BlockStack>
          </Card>
        </Layout.AnnotatedSection>

        <Layout.AnnotatedSection
          id="storefront"
          title="Storefront"
          description="What happens when a signed-in customer opens the referral links block in your store."
        >
          <Card>
            <FormLayout>
              <Checkbox
                label="Enrol customers as ambassadors automatically"
                helpText="Customers who aren't ambassadors yet get their own share links the first time they look. Off: only existing ambassadors see links."
                checked={values.autoEnrol}
                onChange={set("autoEnrol")}
                error={errors.autoEnrol}
              />
              <Select
                label="Group for new ambassadors"
                disabled={!values.autoEnrol}
                options={[
                  { value: "", label: "The program's default group" },
                  ...(groups ?? []).map((g) => ({ value: g.id, label: g.isDefault ? `${g.name} (default)` : g.name })),
                  ...(values.newAmbassadorGroup && groups && !groups.some((g) => g.id === values.newAmbassadorGroup)
                    ? [{ value: values.newAmbassadorGroup, label: `Group ${values.newAmbassadorGroup} (no longer exists)` }]
                    : []),
                ]}
                value={values.newAmbassadorGroup}
                onChange={set("newAmbassadorGroup")}
                helpText={groups === null ? "Groups are listed once your program is connected." : undefined}
                error={errors.newAmbassadorGroup}
              />
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          id="flow"
          title="Shopify Flow"
          description="Start your own Shopify Flow workflows from the referral program's events."
        >
          <Card>
            <Checkbox
              label="Send events to Shopify Flow"
              helpText="When on, the app tells Shopify Flow each time a referral is credited or blocked, a commission is approved or denied, an ambassador is enrolled, a payout is credited as store credit or a referral code leaks, so your workflows can act on it (tag a customer, send an email). Off: nothing is sent."
              checked={values.flowTriggers}
              onChange={set("flowTriggers")}
              error={errors.flowTriggers}
            />
          </Card>
        </Layout.AnnotatedSection>
        <GuardSettings
          guard={values.guard}
          dailyLimit={values.guardDailyLimit}
          onModeChange={(rule, mode) => setValues((v) => ({ ...v, guard: { ...v.guard, [rule]: mode } }))}
          onDailyLimitChange={set("guardDailyLimit")}
          errors={errors}
        />
        <LeakedCodeSettings values={values} onChange={(key, value) => set(key)(value)} errors={errors} />
      </Layout>
    </Form>
  );
}
