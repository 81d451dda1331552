import { defer, json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  ChoiceList,
  DataTable,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  Page,
  SkeletonBodyText,
  Text,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { ambassadorDetail, ambassadorEmailParam, ambassadorLeaks, parseStatsRange, updateAmbassador, type Figures, type LeakedCodeView } from "../entry/admin/ambassadors.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { deferService, withService } from "../entry/admin/shop-service.server";
import { CardSkeleton, Deferred } from "../entry/admin/components/Deferred";
import { EmptyListState, NotConnectedState } from "../entry/admin/components/EmptyStates";
import { EmbeddedParamsFields, useEmbeddedHref } from "../entry/admin/components/embedded-url";
import { FilterField, type FilterQuery } from "../entry/admin/components/FilterField";
import { formatAmount, formatCount, formatDate, formatPoints } from "../entry/admin/components/format";
import { MetricCard } from "../entry/admin/components/MetricCard";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import { ServiceErrorBanner } from "../entry/admin/components/ServiceErrorBanner";
import { AmbassadorStatusBadge } from "../entry/admin/components/StatusBadges";
import { DataList } from "../entry/admin/components/DataList";
import { authenticate } from "../wiring/shopify.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const email = ambassadorEmailParam.safeParse(params.email);
  if (!email.success) return defer({ ok: false as const, email: params.email ?? "" });
  const range = parseStatsRange(new URL(request.url).searchParams);
  const errors = { ...range.errors };
  if (range.values.from && range.values.to && range.values.from > range.values.to)
    errors.to = "The end date must be on or after the start date.";
  const dates = Object.keys(errors).length > 0 ? {} : range.values;
  const ctx = appAdminContext();
  const [service, leakedCodes] = await Promise.all([
    deferService(ctx, session.shop, (client) => ambassadorDetail(client, email.data, dates)),
    ambassadorLeaks(ctx, session.shop, email.data),
  ]);
  return defer({
    ok: true as const,
    email: email.data,
    leakedCodes,
    rawRange: range.raw,
    rangeErrors: errors,
    notConnected: service.ok ? null : service.error,
    // Streamed: the page's frame paints while the service answers; null is an ambassador the program doesn't know.
    detail: service.ok ? service.answer : null,
  });
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const email = ambassadorEmailParam.safeParse(params.email);
  if (!email.success)
    return json({ ok: false as const, fieldErrors: { email: "This ambassador's email isn't valid." } }, { status: 400 });
  const form = await request.formData();
  const ctx = appAdminContext();
  const result = await withService(ctx, session.shop, (client) => updateAmbassador({ client, db: ctx.db, shop: session.shop }, email.data, form));
  if (!result.ok) return json({ ok: false as const, error: result.error }, { status: 502 });
  return json(result.value, { status: result.value.ok ? 200 : 400 });
};

type Detail = NonNullable<Extract<Awaited<Extract<ReturnType<typeof useLoaderData<typeof loader>>, { ok: true }>["detail"]>, { ok: true }>["value"]>;

function Summary({ figures, pointName }: { figures: Figures; pointName: string }) {
  const c = figures.commissions;
  return (
    <BlockStack gap="400">
      <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
        <MetricCard label="Clicks" value={formatCount(figures.clicks)} />
        <MetricCard label="Shares" value={formatCount(figures.shares)} />
        <MetricCard label="Referred customers" value={formatCount(figures.referrals)} />
        <MetricCard
          label="Referred revenue"
          value={formatAmount(figures.revenue.approvedSum)}
          caption={`${formatAmount(figures.revenue.pendingSum)} pending`}
        />
      </InlineGrid>
      <DataTable
        columnContentTypes={["text", "numeric", "numeric"]}
        headings={["Commissions", "Count", "Amount"]}
        rows={[
          ["Pending", formatCount(c.pendingCount), formatAmount(c.pendingSum)],
          ["Approved", formatCount(c.approvedCount), formatAmount(c.approvedSum)],
          ["Denied", formatCount(c.deniedCount), formatAmount(c.deniedSum)],
        ]}
        footerContent={`Amounts in money; rewards in ${pointName} are counted in the balance.`}
      />
    </BlockStack>
  );
}

function RangeForm({ query }: { query: FilterQuery }) {
  const href = useEmbeddedHref();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  return (
    <Form method="get" aria-label="Date range">
      <EmbeddedParamsFields />
      <InlineStack gap="300" blockAlign="end" wrap>
        <div style={{ minWidth: 160 }}>
          <FilterField query={query} label="From" name="from" type="date" />
        </div>
        <div style={{ minWidth: 160 }}>
          <FilterField query={query} label="To" name="to" type="date" />
        </div>
        <Button submit loading={navigation.state === "loading" && navigation.formMethod === "GET"}>
          Show
        </Button>
        <Button variant="tertiary" url={href(pathname)}>
          All time
        </Button>
      </InlineStack>
    </Form>
  );
}

function StatusCard({ detail }: { detail: Detail }) {
  const navigation = useNavigation();
  const intent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Status
          </Text>
          <AmbassadorStatusBadge status={detail.status} />
        </InlineStack>
        <Text as="p" tone="subdued">
          {detail.active
            ? "Active ambassadors earn commissions and can share their links."
            : "Deactivated ambassadors earn no commissions until they're activated again."}
        </Text>
        <Form method="post">
          <input type="hidden" name="intent" value={detail.active ? "deactivate" : "activate"} />
          <Button
            submit
            tone={detail.active ? "critical" : undefined}
            variant={detail.active ? "secondary" : "primary"}
            loading={intent === "deactivate" || intent === "activate"}
          >
            {detail.active ? "Deactivate ambassador" : "Activate ambassador"}
          </Button>
        </Form>
      </BlockStack>
    </Card>
  );
}

function GroupsCard({ detail }: { detail: Detail }) {
  const navigation = useNavigation();
  const [groups, setGroups] = useState(detail.groups);
  const current = JSON.stringify(detail.groups);
  useEffect(() => setGroups(JSON.parse(current) as string[]), [current]);
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "groups";
  return (
    <Card>
      <Form method="post">
        <input type="hidden" name="intent" value="groups" />
        {groups.map((g) => (
          <input key={g} type="hidden" name="groups" value={g} />
        ))}
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Groups
          </Text>
          {detail.allGroups.length === 0 ? (
            <Text as="p" tone="subdued">
              Your program has no groups.
            </Text>
          ) : (
            <ChoiceList
              title="Groups of this ambassador"
              titleHidden
              allowMultiple
              choices={detail.allGroups.map((g) => ({ value: g.id, label: g.name, helpText: g.description ?? undefined }))}
              selected={groups}
              onChange={setGroups}
            />
          )}
          <InlineStack align="end">
            <Button submit loading={saving} disabled={JSON.stringify(groups) === current}>
              Save groups
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}

export default function AmbassadorPage() {
  const data = useLoaderData<typeof loader>();
  const href = useEmbeddedHref();
  const back = { content: "Ambassadors", url: href("/app/ambassadors") };
  const unknown = (
    <Page title={data.email || "Ambassador"} backAction={back}>
      <Card>
        <EmptyListState heading="No ambassador with this email" action={back}>
          <p>The referral program doesn't know {data.email || "this address"}. It may have been removed or changed.</p>
        </EmptyListState>
      </Card>
    </Page>
  );
  if (!data.ok) return unknown;
  if (data.notConnected || !data.detail) {
    return (
      <Page title={data.email} backAction={back}>
        <NotConnectedState error={data.notConnected!} />
      </Page>
    );
  }
  const range = { raw: data.rawRange, errors: data.rangeErrors };
  return (
    <Deferred resolve={data.detail} fallback={<AmbassadorFrame email={data.email} range={range} />}>
      {(answer) =>
        !answer.ok ? (
          <Page title={data.email} backAction={back}>
            <ServiceErrorBanner error={answer.error} />
          </Page>
        ) : answer.value ? (
          <AmbassadorView detail={answer.value} range={range} leakedCodes={data.leakedCodes} />
        ) : (
          unknown
        )
      }
    </Deferred>
  );
}

/** The page before the service answers: its title (the email), the date range, and where each card goes. */
/** What the Performance card shows, said the same before and after the figures come. */
function PerformanceIntro() {
  return (
    <Text as="p" tone="subdued">
      Clicks on the ambassador's share links, shares, referred customers and the revenue they brought, as your referral program
      counts them, for all time or the dates you choose.
    </Text>
  );
}

function AmbassadorFrame({ email, range }: { email: string; range: FilterQuery }) {
  const href = useEmbeddedHref();
  return (
    <Page title={email} backAction={{ content: "Ambassadors", url: href("/app/ambassadors") }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="400">
                <Text as="h2" variant="headingMd">
                  Performance
                </Text>
                <PerformanceIntro />
                <RangeForm query={range} />
                <SkeletonBodyText lines={6} />
              </BlockStack>
            </Card>
            <CardSkeleton label="Loading the ambassador's campaigns" lines={4} />
            <CardSkeleton label="Loading the ambassador's channels" lines={4} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <CardSkeleton label="Loading the ambassador's status" lines={3} />
            <CardSkeleton label="Loading the ambassador's balance" lines={4} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** The ambassador's codes flagged as leaked: when, how many buyers without a link, and what the merchant can do. */
function LeakedCodesBanner({ leaks }: { leaks: LeakedCodeView[] }) {
  if (leaks.length === 0) return null;
  return (
    <Banner tone="critical" title={leaks.length === 1 ? `Code ${leaks[0]!.code} has leaked` : `${leaks.length} of this ambassador's codes have leaked`}>
      <BlockStack gap="200">
        {leaks.map((leak) => (
          <Text as="p" key={leak.code}>
            {`${leak.code}: flagged on ${formatDate(leak.flaggedAt)}, after ${leak.buyers} buyers used it without the ambassador's link within ${leak.windowDays} days. `}
            {leak.held
              ? "Its commissions from then on wait for your review in Commissions; they are not approved on their own."
              : "Its commissions are approved as usual (Settings → Leaked codes holds them)."}
          </Text>
        ))}
        <Text as="p">
          To stop it, disable or replace the code in Shopify (Discounts), and give the ambassador a new one. Approve or deny the held commissions in
          Commissions.
        </Text>
      </BlockStack>
    </Banner>
  );
}

function AmbassadorView({ detail, range, leakedCodes }: { detail: Detail; range: FilterQuery; leakedCodes: LeakedCodeView[] }) {
  const result = useActionData<typeof action>();
  const href = useEmbeddedHref();
  const back = { content: "Ambassadors", url: href("/app/ambassadors") };
  return (
    <Page
      title={detail.name ?? detail.email}
      subtitle={detail.name ? detail.email : undefined}
      titleMetadata={<AmbassadorStatusBadge status={detail.status} />}
      backAction={back}
      secondaryActions={[{ content: "Commissions", url: href("/app/commissions", { email: detail.email }) }]}
    >
      <BlockStack gap="400">
        <LeakedCodesBanner leaks={leakedCodes} />
        {result && "message" in result ? <Banner tone="success" title={result.message} /> : null}
        {result && "error" in result ? <ServiceErrorBanner error={result.error} /> : null}
        {result && "fieldErrors" in result ? (
          <Banner tone="critical" title="Nothing was changed">
            <Text as="p">{Object.values(result.fieldErrors).join(" ")}</Text>
          </Banner>
        ) : null}
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="400">
                  <InlineStack align="space-between" blockAlign="center" gap="200">
                    <BlockStack gap="100">
                      <Text as="h2" variant="headingMd">
                        Performance
                      </Text>
                      <Text as="p" variant="bodySm" tone="subdued">
                        {detail.range.from || detail.range.to
                          ? `${detail.range.from ? formatDate(`${detail.range.from}T00:00:00Z`) : "Start"} – ${
                              detail.range.to ? formatDate(`${detail.range.to}T00:00:00Z`) : "today"
                            }`
                          : "All time"}
                      </Text>
                    </BlockStack>
                  </InlineStack>
                  <PerformanceIntro />
                  <RangeForm query={range} />
                  {detail.summary ? (
                    <Summary figures={detail.summary} pointName={detail.pointName} />
                  ) : (
                    <Text as="p">No statistics for this period.</Text>
                  )}
                </BlockStack>
              </Card>
              <Card padding="0">
                <Box padding="400" paddingBlockEnd="200">
                  <Text as="h2" variant="headingMd">
                    By campaign
                  </Text>
                </Box>
                {detail.campaigns.length === 0 ? (
                  <Box padding="400">
                    <Text as="p" tone="subdued">
                      Not in any campaign yet.
                    </Text>
                  </Box>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric", "numeric"]}
                    headings={["Campaign", "Clicks", "Shares", "Referrals", "Approved", "Earned"]}
                    rows={detail.campaigns.map((c) => [
                      c.name,
                      formatCount(c.figures?.clicks ?? 0),
                      formatCount(c.figures?.shares ?? 0),
                      formatCount(c.figures?.referrals ?? 0),
                      formatAmount(c.figures?.commissions.approvedSum ?? "0"),
                      formatAmount(c.earned),
                    ])}
                  />
                )}
              </Card>
              <Card padding="0">
                <Box padding="400" paddingBlockEnd="200">
                  <Text as="h2" variant="headingMd">
                    By channel
                  </Text>
                </Box>
                {detail.channels.length === 0 ? (
                  <Box padding="400">
                    <Text as="p" tone="subdued">
                      No shares yet.
                    </Text>
                  </Box>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric"]}
                    headings={["Channel", "Shares", "Clicks", "Referrals", "Approved"]}
                    rows={detail.channels.map((ch) => [
                      `${ch.name[0]!.toUpperCase()}${ch.name.slice(1)}`,
                      formatCount(ch.figures.shares),
                      ch.clicksTracked ? formatCount(ch.figures.clicks) : "Not tracked",
                      formatCount(ch.figures.referrals),
                      formatAmount(ch.figures.commissions.approvedSum),
                    ])}
                  />
                )}
              </Card>
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <StatusCard detail={detail} />
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Balance
                  </Text>
                  <DataList
                    items={[
                      { label: "Money", value: formatAmount(detail.balanceMoney) },
                      {
                        label: detail.pointName[0]!.toUpperCase() + detail.pointName.slice(1),
                        value: formatPoints(detail.balancePoints),
                      },
                      { label: "Paid out", value: formatAmount(detail.moneyPaid) },
                      { label: "Joined", value: formatDate(detail.createdAt) },
                    ]}
                  />
                </BlockStack>
              </Card>
              <GroupsCard detail={detail} />
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    Share links
                  </Text>
                  {detail.campaigns.filter((c) => c.url).length === 0 ? (
                    <Text as="p" tone="subdued">
                      No share link yet.
                    </Text>
                  ) : (
                    detail.campaigns
                      .filter((c) => c.url)
                      .map((c) => (
                        <BlockStack gap="050" key={c.uid ?? c.url}>
                          <Text as="h3" variant="bodySm" tone="subdued">
                            {c.name}
                          </Text>
                          <div className="rb-wrap">
                            <Link url={c.url!} target="_blank" removeUnderline>
                              {c.url}
                            </Link>
                          </div>
                        </BlockStack>
                      ))
                  )}
                </BlockStack>
              </Card>
            </BlockStack>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Ambassador" />;
}
