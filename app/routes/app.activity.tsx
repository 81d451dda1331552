import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { Banner, BlockStack, Box, Card, EmptyState, Page, Tabs, Text } from "@shopify/polaris";
import { activityActionSchema, activityQuerySchema, listActivity, retryOrder, skipOrder } from "../entry/admin/activity.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { fieldErrorsOf, formFields } from "../entry/admin/form-data";
import { ActivityTable } from "../entry/admin/components/ActivityTable";
import { EmptyListState } from "../entry/admin/components/EmptyStates";
import { useEmbeddedHref } from "../entry/admin/components/embedded-url";
import { formatCount } from "../entry/admin/components/format";
import { ALL_GOOD_ILLUSTRATION } from "../entry/admin/components/illustrations";
import { PagingBar } from "../entry/admin/components/PagingBar";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import { authenticate } from "../wiring/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  const query = activityQuerySchema.parse({ status: params.get("status") ?? undefined, page: params.get("page") ?? 1 });
  const activity = await listActivity(appAdminContext(), session.shop, query);
  return { shop: session.shop, status: query.status ?? null, ...activity };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const parsed = activityActionSchema.safeParse(formFields(await request.formData()));
  if (!parsed.success) {
    const message = Object.values(fieldErrorsOf(parsed.error.issues)).join(" ");
    return json({ ok: false, tone: "critical" as const, title: "Nothing was changed", message }, { status: 400 });
  }
  const { intent, orderId } = parsed.data;
  const result = intent === "retry" ? await retryOrder(ctx, session.shop, orderId) : await skipOrder(ctx, session.shop, orderId);
  return json(result, { status: result.ok || result.tone === "warning" ? 200 : 400 });
};

const TABS = [
  { id: "all", label: "All" },
  { id: "failed", label: "Failed" },
  { id: "needs_review", label: "Needs review" },
  { id: "queued", label: "Queued" },
  { id: "awaiting_signal", label: "Waiting for a pixel signal" },
  { id: "recorded", label: "Recorded" },
  { id: "not_referred", label: "Not referred" },
  { id: "blocked", label: "Blocked" },
  { id: "skipped", label: "Skipped" },
  { id: "reversed", label: "Reversed" },
] as const;

export default function Activity() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigate = useNavigate();
  const href = useEmbeddedHref();
  const total = Object.values(data.counts).reduce((a, b) => a + b, 0);
  const tabs = TABS.map((t) => ({
    id: t.id,
    content: t.label,
    badge: formatCount(t.id === "all" ? total : data.counts[t.id]),
    accessibilityLabel: `${t.label}: ${t.id === "all" ? total : data.counts[t.id]} orders`,
  }));
  const selected = Math.max(
    0,
    TABS.findIndex((t) => t.id === (data.status ?? "all"))
  );
  const from = (data.page - 1) * data.pageSize + 1;

  const emptyState =
    total === 0 ? (
      <EmptyListState heading="No orders yet" action={{ content: "Check the setup", url: href("/app") }}>
        <p>Orders placed with a referral link or a referrer's coupon show up here as soon as Shopify sends them.</p>
      </EmptyListState>
    ) : (
      <EmptyState
        heading={data.status === "failed" || data.status === "needs_review" ? "Nothing needs your attention" : "No orders here"}
        image={ALL_GOOD_ILLUSTRATION}
      >
        <p>No order has this status right now.</p>
      </EmptyState>
    );

  return (
    <Page title="Activity" subtitle="Every order the app received, and what happened to it at the referral service.">
      <BlockStack gap="400">
        {result ? (
          <Banner
            tone={result.tone}
            title={result.title}
            action={
              "action" in result && result.action ? { content: result.action.content, url: href(result.action.url) } : undefined
            }
          >
            <Text as="p">{result.message}</Text>
          </Banner>
        ) : null}
        {data.counts.needs_review > 0 && data.status !== "needs_review" ? (
          <Banner tone="info" title="About orders that need review">
            <Text as="p">
              They were cancelled or refunded after their commission was approved, which the app can't undo. Review the
              commission, adjust it in your referral program's dashboard, then use Check again; or Skip to keep it as it is.
            </Text>
          </Banner>
        ) : null}
        <Card padding="0">
          <div className="rb-tabs">
            <Tabs
              tabs={tabs}
              selected={selected}
              onSelect={(i) => navigate(href("/app/activity", { status: TABS[i]!.id === "all" ? undefined : TABS[i]!.id }))}
            />
          </div>
          <ActivityTable rows={data.rows} shop={data.shop} emptyState={emptyState} />
          {data.total > 0 ? (
            <Box padding="400" borderBlockStartWidth="025" borderColor="border">
              <BlockStack gap="200" inlineAlign="center">
                <PagingBar
                  page={data.page}
                  hasMore={data.hasMore}
                  hrefOf={(page) => href("/app/activity", { status: data.status ?? undefined, page })}
                  label={`${from}–${from + data.rows.length - 1} of ${data.total}`}
                />
                {data.page === 1 && !data.hasMore ? (
                  <Text as="p" variant="bodySm" tone="subdued">
                    {`${formatCount(data.total)} ${data.total === 1 ? "order" : "orders"}`}
                  </Text>
                ) : null}
              </BlockStack>
            </Box>
          ) : null}
        </Card>
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Activity" />;
}
