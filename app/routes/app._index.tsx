import { defer, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { readConnection } from "../entry/admin/connection.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { dailyReferrals, programFigures, syncHealth, trackingEmbedSeen, type ProgramFigures as ProgramFiguresView } from "../entry/admin/dashboard.server";
import { readIntent } from "../entry/admin/intent";
import { REFRESH_SCOPES_INTENT } from "../entry/admin/components/OrderSyncCards";
import { liveGrantedScopes } from "../platform/shopify-admin/access-scopes.server";
import { orderSyncView, requestBackfill, storefrontChecks } from "../entry/admin/order-sync-view.server";
import { readSettings } from "../entry/admin/settings.server";
import { deferService } from "../entry/admin/shop-service.server";
import { DataList } from "../entry/admin/components/DataList";
import { CardSkeleton, Deferred, MetricSkeleton } from "../entry/admin/components/Deferred";
import { EmptyListState } from "../entry/admin/components/EmptyStates";
import { useEmbeddedHref } from "../entry/admin/components/embedded-url";
import { formatAmount, formatCount, formatDateTime, plural } from "../entry/admin/components/format";
import { MetricCard } from "../entry/admin/components/MetricCard";
import { OverviewAttention } from "../entry/admin/components/OverviewAttention";
import { BackfillCard, ReconcileCard } from "../entry/admin/components/OrderSyncCards";
import { ReferralsChart } from "../entry/admin/components/ReferralsChart";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import { OverviewSetupGuide } from "../entry/admin/components/OverviewSetupGuide";
import { CommissionStatusBadge, ConnectionBadge, OrderStatusBadge } from "../entry/admin/components/StatusBadges";
import { authenticate } from "../wiring/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const shop = session.shop;
  const [stats, connection, health, daily, settings, embedSeen, orderSync, storefront] = await Promise.all([
    deferService(ctx, shop, async (client) => programFigures((await client.getCompanyStats()).stats)),
    readConnection(ctx, shop),
    syncHealth(ctx.db, shop),
    dailyReferrals(ctx.db, shop, new Date()),
    readSettings(ctx, shop),
    trackingEmbedSeen(ctx.db, shop),
    orderSyncView(ctx.db, shop),
    storefrontChecks(ctx, shop),
  ]);
  return defer({
    store: shop.replace(/\.myshopify\.com$/, ""),
    connection,
    health,
    daily,
    trackedCampaigns: settings.campaignUids.length,
    embedSeen,
    orderSync,
    storefront,
    // Streamed: the page paints its local data while the service answers.
    program: stats.ok ? stats.answer : null,
  });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = readIntent(form, ["backfill", REFRESH_SCOPES_INTENT]);
  if (intent === null) return { ok: false as const, error: { title: "Unknown request", message: "Reload the page and try again.", retryable: false } };
  const ctx = appAdminContext();
  if (intent === REFRESH_SCOPES_INTENT) {
    // The merchant just granted a scope in the admin: Shopify is asked, so the page need not wait for app/scopes_update.
    const granted = await liveGrantedScopes(ctx.db, ctx.adminForShop, session.shop);
    return granted.ok
      ? { ok: true as const }
      : { ok: false as const, error: { title: "Shopify could not be asked", message: granted.reason, retryable: true } };
  }
  return requestBackfill(ctx.db, session.shop, form);
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

/** The one attention banner: at once from the app's own data, again with the service's error if its answer is one. */
function Attention({ data }: { data: Data }) {
  const facts = { ...data, statsError: null };
  if (!data.program) return <OverviewAttention facts={facts} />;
  return (
    <Deferred resolve={data.program} fallback={<OverviewAttention facts={facts} />}>
      {(answer) => <OverviewAttention facts={{ ...facts, statsError: answer.ok ? null : answer.error }} />}
    </Deferred>
  );
}

/** The program's figures, from the service: they stream in after the page has painted (its error is the attention banner's). */
function ServiceFigures({ program }: { program: Data["program"] }) {
  if (!program) return null;
  return (
    <Deferred resolve={program} fallback={<FiguresSkeleton />}>
      {(answer) => (answer.ok ? <ProgramFigures figures={answer.value} /> : null)}
    </Deferred>
  );
}

/** As tall as the figures, so the chart below them stays where it is when they come. */
function FiguresSkeleton() {
  return (
    <BlockStack gap="400">
      <InlineGrid columns={{ xs: 2, md: 4 }} gap="400">
        {["Ambassadors", "Link clicks", "Referred revenue", "To review"].map((label) => (
          <MetricSkeleton key={label} label={label} />
        ))}
      </InlineGrid>
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
        <CardSkeleton label="Loading commissions" lines={5} />
        <CardSkeleton label="Loading payouts" lines={5} />
      </InlineGrid>
    </BlockStack>
  );
}

function ProgramFigures({ figures }: { figures: ProgramFiguresView }) {
  const href = useEmbeddedHref();
  const [pending] = figures.commissions;
  return (
    <BlockStack gap="400">
      <InlineGrid columns={{ xs: 2, md: 4 }} gap="400">
        <MetricCard
          label="Ambassadors"
          value={formatCount(figures.activeAmbassadors)}
          caption={`${formatCount(figures.deactivatedAmbassadors)} deactivated`}
        />
        <MetricCard
          label="Link clicks"
          value={formatCount(figures.clicks)}
          caption={`in ${plural(figures.activeCampaigns, "active campaign")}`}
        />
        <MetricCard
          label="Referred revenue"
          value={formatAmount(figures.revenue.approved)}
          caption={`${formatAmount(figures.revenue.pending)} pending`}
        />
        <MetricCard
          label="To review"
          value={formatCount(pending!.count)}
          caption={`${formatAmount(pending!.sum)} in pending commissions`}
        />
      </InlineGrid>
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
        <Card>
          <BlockStack gap="300">
            <InlineStack align="space-between" blockAlign="center">
              <Text as="h2" variant="headingMd">
                Commissions
              </Text>
              <Button variant="plain" url={href("/app/commissions", { status: "pending" })}>
                Review pending
              </Button>
            </InlineStack>
            <DataList
              items={figures.commissions.map((c) => ({
                key: c.state,
                label: (
                  <InlineStack gap="200" blockAlign="center">
                    <CommissionStatusBadge status={c.state} />
                    <Text as="span" tone="subdued">
                      {formatCount(c.count)}
                    </Text>
                  </InlineStack>
                ),
                value: formatAmount(c.sum),
              }))}
            />
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Payouts to ambassadors
            </Text>
            <DataList
              items={figures.payouts.map((p) => ({
                key: p.state,
                label: `${p.state[0]!.toUpperCase()}${p.state.slice(1)} (${formatCount(p.count)})`,
                value: formatAmount(p.sum),
              }))}
            />
          </BlockStack>
        </Card>
      </InlineGrid>
    </BlockStack>
  );
}

function ChartCard({ data }: { data: Data }) {
  const href = useEmbeddedHref();
  const { daily } = data;
  return (
    <Card>
      <BlockStack gap="400">
        <BlockStack gap="300">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              Referred orders, last 30 days
            </Text>
            <Text as="p" variant="bodySm" tone="subdued">
              Orders recorded at the referral service, by the day they were placed (UTC). Cancelled orders are left out.
            </Text>
          </BlockStack>
          {daily.totalOrders === 0 ? null : (
            <InlineStack gap="600">
              <BlockStack gap="050">
                <Text as="p" variant="bodySm" tone="subdued">
                  Orders
                </Text>
                <Text as="p" variant="headingLg">
                  {formatCount(daily.totalOrders)}
                </Text>
              </BlockStack>
              <BlockStack gap="050">
                <Text as="p" variant="bodySm" tone="subdued">
                  Revenue
                </Text>
                <Text as="p" variant="headingLg">
                  {formatAmount(daily.totalRevenue, daily.currency)}
                </Text>
              </BlockStack>
            </InlineStack>
          )}
        </BlockStack>
        {daily.totalOrders === 0 ? (
          <EmptyListState heading="No referred orders yet" action={{ content: "View activity", url: href("/app/activity") }}>
            <p>Orders placed through a share link or with a referrer's coupon appear here once they're recorded.</p>
          </EmptyListState>
        ) : (
          <ReferralsChart points={daily.points} currency={daily.currency} />
        )}
      </BlockStack>
    </Card>
  );
}

function Sidebar({ data }: { data: Data }) {
  const href = useEmbeddedHref();
  const { connection, health } = data;
  const statuses = ["queued", "awaiting_signal", "recorded", "not_referred", "blocked", "failed", "needs_review", "skipped"] as const;
  return (
    <BlockStack gap="400">
      <Card>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Connection
            </Text>
            <ConnectionBadge status={connection.status} />
          </InlineStack>
          <BlockStack gap="100">
            <Text as="p" fontWeight="medium">
              {connection.companyName ?? "No program connected"}
            </Text>
            <Text as="p" variant="bodySm" tone="subdued">
              {connection.checkedAt
                ? `Checked ${formatDateTime(connection.checkedAt)}`
                : connection.status === "not_connected"
                ? "Connect in Settings to start recording referrals."
                : connection.error ?? "Credentials saved."}
            </Text>
          </BlockStack>
          <InlineStack>
            <Button url={href("/app/settings")}>{connection.status === "connected" ? "Manage connection" : "Connect"}</Button>
          </InlineStack>
        </BlockStack>
      </Card>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Order sync
          </Text>
          <DataList
            items={statuses.map((status) => ({
              key: status,
              label: <OrderStatusBadge status={status} />,
              value:
                health.counts[status] > 0 ? (
                  <Button
                    variant="plain"
                    url={href("/app/activity", { status })}
                    accessibilityLabel={`${formatCount(health.counts[status])} ${status.replaceAll("_", " ")} orders`}
                  >
                    {formatCount(health.counts[status])}
                  </Button>
                ) : (
                  "0"
                ),
            }))}
          />
          <Text as="p" variant="bodySm" tone="subdued">
            {health.lastSuccessAt ? `Last order recorded ${formatDateTime(health.lastSuccessAt)}` : "No order recorded yet."}
          </Text>
        </BlockStack>
      </Card>
      <ReconcileCard sync={data.orderSync} />
    </BlockStack>
  );
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <Page
      title="Overview"
      subtitle={data.connection.companyName ? `Referral program of ${data.connection.companyName}` : "Referral Bridge"}
    >
      <BlockStack gap="500">
        <Attention data={data} />
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <OverviewSetupGuide facts={data} />
              {data.connection.status === "connected" ? <BackfillCard sync={data.orderSync} error={actionData && !actionData.ok ? actionData.error : null} /> : null}
              <ServiceFigures program={data.program} />
              {data.connection.status === "not_connected" ? null : <ChartCard data={data} />}
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <Sidebar data={data} />
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Overview" />;
}
