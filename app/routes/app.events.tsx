import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, DataTable, Layout, Page, Text, type BadgeProps } from "@shopify/polaris";
import { useState } from "react";
import { ROTATE_SECRET_INTENT } from "../admin/service-webhook";
import { rotateServiceWebhookSecret, serviceWebhookView } from "../admin/service-webhook.server";
import { useEmbeddedHref } from "../components/embedded-url";
import { formatDateTime } from "../components/format";
import { PagingBar } from "../components/PagingBar";
import { RouteErrorBoundary } from "../components/RouteErrorBoundary";
import { ServiceWebhookCard } from "../components/ServiceWebhookCard";
import {
  eventsPageQuery,
  listServiceEvents,
  readServiceEventOptions,
  retryServiceEvent,
  saveServiceEventOptions,
  serviceEventActionSchema,
} from "../service-events/events.server";
import { authenticate } from "../shopify.server";
import { appAdminContext } from "../wiring/admin-context.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { page } = eventsPageQuery.parse({ page: new URL(request.url).searchParams.get("page") ?? undefined });
  const ctx = appAdminContext();
  const [events, options, endpoint] = await Promise.all([
    listServiceEvents(ctx.db, session.shop, { page }),
    readServiceEventOptions(ctx.db, session.shop),
    serviceWebhookView(ctx, session.shop),
  ]);
  return { events, options, endpoint };
};

export const action = async ({ request }: ActionFunctionArgs) => {
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
    const { storeCreditPayouts, tagContacts } = parsed.data;
    await saveServiceEventOptions(db, session.shop, { storeCreditPayouts, tagContacts });
    return { ok: true, message: "Saved." };
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
};

function StateBadge({ state }: { state: string }) {
  const [label, tone] = STATE_BADGE[state] ?? [state, undefined];
  return <Badge tone={tone}>{label}</Badge>;
}

function OptionsCard({ storeCreditPayouts, tagContacts }: { storeCreditPayouts: boolean; tagContacts: boolean }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [credit, setCredit] = useState(storeCreditPayouts);
  const [tag, setTag] = useState(tagContacts);
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "options";
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          What the app does with the events
        </Text>
        <Checkbox
          label="Pay store platform payouts as Shopify store credit"
          helpText="When the service creates a payout with the store platform payment method, the ambassador's Shopify customer account gets the amount as store credit, once per payout."
          checked={credit}
          onChange={setCredit}
        />
        <Checkbox
          label="Tag new ambassadors in Shopify"
          helpText='When the service creates a contact whose email matches a Shopify customer, that customer gets the tag "referral-ambassador".'
          checked={tag}
          onChange={setTag}
        />
        <Box>
          <Button
            loading={saving}
            onClick={() => submit({ intent: "options", storeCreditPayouts: String(credit), tagContacts: String(tag) }, { method: "post" })}
          >
            Save
          </Button>
        </Box>
      </BlockStack>
    </Card>
  );
}

export default function ServiceEvents() {
  const { events, options, endpoint } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const href = useEmbeddedHref();
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
        <Layout.Section>
          <OptionsCard {...options} />
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
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Service events" />;
}
