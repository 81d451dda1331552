import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, DataTable, Layout, Page, Text, type BadgeProps } from "@shopify/polaris";
import { ContextualSaveBar } from "../entry/admin/components/ContextualSaveBar";
import { requestScopes } from "../entry/admin/components/scope-request";
import { useEffect, useState } from "react";
import { ROTATE_SECRET_INTENT, type RotateSecretResult } from "../entry/admin/service-webhook";
import { rotateServiceWebhookSecret, serviceWebhookView } from "../entry/admin/service-webhook.server";
import { useEmbeddedHref } from "../entry/admin/components/embedded-url";
import { FlowActionRunsCard } from "../entry/admin/components/FlowActionRunsCard";
import { formatDateTime } from "../entry/admin/components/format";
import { PagingBar } from "../entry/admin/components/PagingBar";
import { PayoutSettingsFields, type PayoutSettingsValues } from "../entry/admin/components/PayoutSettingsFields";
import { PayoutsWaitingCard, type PayoutAnswer } from "../entry/admin/components/PayoutsWaitingCard";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import { ServiceWebhookCard } from "../entry/admin/components/ServiceWebhookCard";
import {
  answerHeldPayout,
  eventsPageQuery,
  listServiceEvents,
  readPayoutsPart,
  readServiceEventOptions,
  retryServiceEvent,
  saveServiceEventOptions,
  serviceEventActionSchema,
} from "../domains/service-events/events.server";
import { enqueueShareLinkBackfill } from "../domains/customer-metafields/ask-share-link.server";
import { readShareLinkStatus, type ShareLinkStatus } from "../domains/customer-metafields/share-link-status.server";
import { listFlowActionRuns } from "../domains/flow-actions/runs.server";
import { featureScopeProblem } from "../domains/service-events/feature-scopes.server";
import { parsePayoutSettingsForm, type PayoutSettingsField } from "../domains/service-events/payout-settings.server";
import { liveGrantedScopes } from "../platform/shopify-admin/access-scopes.server";
import { FEATURE_SCOPES, permissionNeeded, type ScopedFeature } from "../platform/shopify-admin/optional-scopes";
import { authenticate } from "../wiring/shopify.server";
import { appAdminContext } from "../wiring/admin-context.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { page } = eventsPageQuery.parse({ page: new URL(request.url).searchParams.get("page") ?? undefined });
  const ctx = appAdminContext();
  const [events, options, endpoint, payouts, shareLinks, flowRuns] = await Promise.all([
    listServiceEvents(ctx.db, session.shop, { page }),
    readServiceEventOptions(ctx.db, session.shop),
    serviceWebhookView(ctx, session.shop),
    readPayoutsPart(ctx.db, session.shop, ctx.adminForShop),
    readShareLinkStatus(ctx.db, session.shop),
    listFlowActionRuns(ctx.db, session.shop),
  ]);
  return { events, options, endpoint, payouts, shareLinks, flowRuns };
};

const PAYOUT_ANSWERED = {
  approvePayout: "Approved: the payout is being credited.",
  recheckPayout: "The payout will be checked again in a moment.",
  closePayout: "Closed: the app will not credit this payout.",
};

type OptionsResult = { ok: boolean; message: string; fieldErrors?: Partial<Record<PayoutSettingsField, string>> };
type ActionResult = OptionsResult | (RotateSecretResult & { intent: typeof ROTATE_SECRET_INTENT });

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const { db } = ctx;
  const form = Object.fromEntries(await request.formData());
  if (form.intent === ROTATE_SECRET_INTENT) {
    return { intent: ROTATE_SECRET_INTENT, ...(await rotateServiceWebhookSecret(ctx, session.shop, form)) };
  }
  const parsed = serviceEventActionSchema.safeParse(form);
  if (!parsed.success) return { ok: false, message: "That request could not be understood. Reload the page and try again." };
  if (parsed.data.intent === "options") {
    const { storeCreditPayouts, tagContacts, payoutCurrency, payoutCeiling, payoutPeriodTotal } = parsed.data;
    const payout = parsePayoutSettingsForm({ payoutCurrency, payoutCeiling, payoutPeriodTotal });
    if (!payout.ok) return { ok: false, message: "Nothing was saved: check the fields marked below.", fieldErrors: payout.fieldErrors };
    const current = await readServiceEventOptions(db, session.shop);
    const next = { storeCreditPayouts, tagContacts, shareLinkMetafield: parsed.data.shareLinkMetafield ?? current.shareLinkMetafield };
    const scopeProblem = await featureScopeProblem(current, next, () => liveGrantedScopes(db, ctx.adminForShop, session.shop));
    if (scopeProblem) return { ok: false, message: scopeProblem };
    await saveServiceEventOptions(db, session.shop, { ...next, ...payout.change });
    // Just turned on: the ambassadors enrolled before get their share link too.
    if (next.shareLinkMetafield && !current.shareLinkMetafield) await enqueueShareLinkBackfill(db, session.shop);
    return { ok: true, message: "Saved." };
  }
  if (parsed.data.intent !== "retry") {
    const answered = await answerHeldPayout(db, session.shop, parsed.data.intent, parsed.data.id);
    return answered
      ? { ok: true, message: PAYOUT_ANSWERED[parsed.data.intent] }
      : { ok: false, message: "This payout is no longer waiting for you. Reload the page." };
  }
  const retried = await retryServiceEvent(db, session.shop, parsed.data.id);
  return retried
    ? { ok: true, message: "The event will be acted on again in a moment." }
    : { ok: false, message: "This event can't be retried: it is not failed (any more). Reload the page." };
};

const STATE_BADGE: Record<string, [string, BadgeProps["tone"]]> = {
  received: ["Queued", "info"],
  processed: ["Done", "success"],
  ignored: ["Not acted on", undefined],
  failed: ["Failed", "critical"],
  held: ["Waiting for you", "attention"],
};

function StateBadge({ state }: { state: string }) {
  const [label, tone] = STATE_BADGE[state] ?? [state, undefined];
  return <Badge tone={tone}>{label}</Badge>;
}

function OptionsCard({
  storeCreditPayouts,
  tagContacts,
  shareLinkMetafield,
  shareLinks,
  payouts,
  fieldErrors,
}: {
  storeCreditPayouts: boolean;
  tagContacts: boolean;
  shareLinkMetafield: boolean;
  shareLinks: ShareLinkStatus;
  payouts: { currency: string | null; ceiling: string; periodTotal: string };
  fieldErrors?: OptionsResult["fieldErrors"];
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const stored = { credit: storeCreditPayouts, tag: tagContacts, link: shareLinkMetafield, payoutCurrency: payouts.currency ?? "", payoutCeiling: payouts.ceiling, payoutPeriodTotal: payouts.periodTotal };
  const storedKey = JSON.stringify(stored);
  const [values, setValues] = useState(stored);
  // After a save (the page's data read again) the form shows what is stored.
  useEffect(() => setValues(JSON.parse(storedKey) as typeof stored), [storedKey]);
  const [permission, setPermission] = useState<string | null>(null);
  const [asking, setAsking] = useState<ScopedFeature | null>(null);
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "options";
  const dirty = JSON.stringify(values) !== storedKey;

  /** Turning a feature on first asks the merchant for its optional scopes; declined, it stays off. */
  const toggle = (feature: ScopedFeature, key: "credit" | "tag" | "link") => async (on: boolean) => {
    if (!on) return setValues((v) => ({ ...v, [key]: false }));
    setAsking(feature);
    try {
      const answer = await requestScopes(FEATURE_SCOPES[feature]);
      if (answer === "declined") {
        setPermission(permissionNeeded(feature, FEATURE_SCOPES[feature]));
        return;
      }
      setPermission(null);
      setValues((v) => ({ ...v, [key]: true }));
    } finally {
      setAsking(null);
    }
  };
  const save = () => {
    const form: Record<string, string> = {
      intent: "options",
      storeCreditPayouts: String(values.credit),
      tagContacts: String(values.tag),
      shareLinkMetafield: String(values.link),
      payoutCeiling: values.payoutCeiling,
      payoutPeriodTotal: values.payoutPeriodTotal,
    };
    // An empty currency keeps what is stored (the shop's, once read).
    if (values.payoutCurrency.trim()) form.payoutCurrency = values.payoutCurrency;
    submit(form, { method: "post" });
  };
  return (
    <Card>
      <ContextualSaveBar id="service-event-options-save-bar" dirty={dirty} saving={saving} onSave={save} onDiscard={() => setValues(stored)} />
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          What the app does with the events
        </Text>
        {permission ? (
          <Banner tone="warning" onDismiss={() => setPermission(null)}>
            {permission}
          </Banner>
        ) : null}
        <Checkbox
          label="Pay store platform payouts as Shopify store credit"
          helpText="When the service creates a payout with the store platform payment method, the ambassador's Shopify customer account gets the amount as store credit, once per payout. Turning it on asks you to allow the app to read and credit store credit accounts."
          checked={values.credit}
          disabled={asking !== null}
          onChange={toggle("storeCreditPayouts", "credit")}
        />
        <PayoutSettingsFields
          values={{ payoutCurrency: values.payoutCurrency, payoutCeiling: values.payoutCeiling, payoutPeriodTotal: values.payoutPeriodTotal }}
          onChange={(payout: PayoutSettingsValues) => setValues((v) => ({ ...v, ...payout }))}
          errors={fieldErrors}
          recorded={payouts.currency !== null}
        />
        <Checkbox
          label="Tag new ambassadors in Shopify"
          helpText='When the service creates a contact whose email matches a Shopify customer, that customer gets the tag "referral-ambassador". Turning it on asks you to allow the app to change customers (write_customers).'
          checked={values.tag}
          disabled={asking !== null}
          onChange={toggle("tagContacts", "tag")}
        />
        <Checkbox
          label="Keep each ambassador's share link on their Shopify customer"
          helpText="The app writes the share link and code to the customer's Referral share link and Referral share code fields (app metafields), for order notifications, your theme and the app's blocks; a deactivated ambassador's are removed. Turning it on asks you to allow the app to change customers (write_customers); without it nothing is written."
          checked={values.link}
          disabled={asking !== null}
          onChange={toggle("shareLinkMetafield", "link")}
        />
        {shareLinkMetafield || shareLinks.written > 0 || shareLinks.lastProblem ? (
          <Text as="p" tone={shareLinks.lastProblem ? "caution" : "subdued"}>
            {`Share links written on ${shareLinks.written} ${shareLinks.written === 1 ? "customer" : "customers"}.`}
            {shareLinks.lastProblem ? ` Last problem: ${shareLinks.lastProblem}` : ""}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}

export default function ServiceEvents() {
  const { events, options, endpoint, payouts, shareLinks, flowRuns } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const href = useEmbeddedHref();
  const answering = navigation.formData?.get("intent");
  const pendingAnswer =
    navigation.state === "submitting" && (answering === "approvePayout" || answering === "recheckPayout" || answering === "closePayout")
      ? { id: String(navigation.formData?.get("id")), answer: answering as PayoutAnswer }
      : null;
  const rows = events.events.map((event) => [
    <BlockStack key="type" gap="050">
      <Text as="span" fontWeight="semibold">
        {event.eventType}
      </Text>
      <Text as="span" tone="subdued" variant="bodySm">
        #{event.eventId}
      </Text>
    </BlockStack>,
    formatDateTime(event.receivedAt),
    <StateBadge key="state" state={event.state} />,
    <Text key="detail" as="span" breakWord>
      {event.detail ?? ""}
    </Text>,
    event.state === "failed" ? (
      <Button key="retry" size="slim" onClick={() => submit({ intent: "retry", id: event.id }, { method: "post" })}>
        Retry
      </Button>
    ) : (
      ""
    ),
  ]);
  return (
    <Page title="Service events" subtitle="Webhooks the referral service sent to this shop">
      <Layout>
        {result && "message" in result && !("intent" in result) ? (
          <Layout.Section>
            <Banner tone={result.ok ? "success" : "critical"}>{result.message}</Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <ServiceWebhookCard webhook={endpoint} rotation={result && "intent" in result ? result : undefined} />
        </Layout.Section>
        {payouts.held.length > 0 ? (
          <Layout.Section>
            <PayoutsWaitingCard payouts={payouts.held} pending={pendingAnswer} onAnswer={(id, answer) => submit({ intent: answer, id }, { method: "post" })} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <OptionsCard {...options} shareLinks={shareLinks} payouts={payouts} fieldErrors={result && !("intent" in result) ? result.fieldErrors : undefined} />
        </Layout.Section>
        <Layout.Section>
          <Card padding="0">
            {rows.length === 0 ? (
              <Box padding="400">
                <Text as="p" tone="subdued">
                  No events yet. Once the webhook is set up at the referral service, its events show up here.
                </Text>
              </Box>
            ) : (
              <DataTable
                columnContentTypes={["text", "text", "text", "text", "text"]}
                headings={["Event", "Received", "State", "What happened", ""]}
                rows={rows}
                verticalAlign="middle"
              />
            )}
          </Card>
        </Layout.Section>
        <Layout.Section>
          <PagingBar page={events.page} hasMore={events.hasNext} hrefOf={(page) => href("/app/events", { page })} />
        </Layout.Section>
        <Layout.Section>
          <FlowActionRunsCard runs={flowRuns} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Service events" />;
}
