import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { BlockStack, Box, Card, FormLayout, IndexTable, Link, Page, Select, Text } from "@shopify/polaris";
import { useState } from "react";
import { listAmbassadorsPage, parseAmbassadorQuery } from "../admin/ambassadors.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { withService } from "../admin/shop-service.server";
import { EmptyListState, NotConnectedState } from "../components/EmptyStates";
import { useEmbeddedHref } from "../components/embedded-url";
import { FilterBar } from "../components/FilterBar";
import { FilterField } from "../components/FilterField";
import { formatAmount, formatCount, formatDate, formatPoints } from "../components/format";
import { PagingBar } from "../components/PagingBar";
import { RouteErrorBoundary } from "../components/RouteErrorBoundary";
import { ServiceErrorBanner } from "../components/ServiceErrorBanner";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const query = parseAmbassadorQuery(new URL(request.url).searchParams);
  const result = await withService(appAdminContext(), session.shop, async (client) => {
    const [page, groups] = await Promise.all([listAmbassadorsPage(client, query), client.listGroups()]);
    return { ...page, groups: groups.map((g) => ({ id: g.groupId, name: g.name ?? `Group ${g.groupId}` })) };
  });
  return {
    filters: query.filters,
    rawFilters: query.raw,
    filterErrors: query.errors,
    list: result.ok ? result.value : null,
    error: result.ok ? null : result.error,
    notConnected: !result.ok && result.notConnected,
  };
};

export default function Ambassadors() {
  const { filters, rawFilters, filterErrors, list, error, notConnected } = useLoaderData<typeof loader>();
  const filterQuery = { raw: rawFilters, errors: filterErrors };
  const href = useEmbeddedHref();
  const location = useLocation();
  const [active, setActive] = useState(filters.active ?? "");
  const [group, setGroup] = useState(filters.group ?? "");

  if (notConnected && error) {
    return (
      <Page title="Ambassadors">
        <NotConnectedState error={error} />
      </Page>
    );
  }
  const filterParams = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v === undefined ? undefined : String(v)]));
  return (
    <Page title="Ambassadors" subtitle="The people who share your store, with what they earned and referred.">
      <BlockStack gap="400">
        {error ? <ServiceErrorBanner error={error} /> : null}
        <Card padding="0">
          <FilterBar label="Filter ambassadors" clearTo={location.pathname}>
            <FormLayout>
              <FormLayout.Group condensed>
                <FilterField
                  query={filterQuery}
                  label="Email"
                  name="email"
                  type="email"
                />
                <Select
                  label="Status"
                  name="active"
                  options={[
                    { label: "All", value: "" },
                    { label: "Active", value: "active" },
                    { label: "Deactivated", value: "inactive" },
                  ]}
                  value={active}
                  onChange={setActive}
                />
                <Select
                  label="Group"
                  name="group"
                  options={[
                    { label: "All groups", value: "" },
                    ...(list?.groups ?? []).map((g) => ({ label: g.name, value: g.id })),
                  ]}
                  value={group}
                  onChange={setGroup}
                />
                <FilterField
                  query={filterQuery}
                  label="Joined from"
                  name="from"
                  type="date"
                />
                <FilterField
                  query={filterQuery}
                  label="Joined to"
                  name="to"
                  type="date"
                />
              </FormLayout.Group>
              <FormLayout.Group condensed>
                <FilterField
                  query={filterQuery}
                  label="Balance at least"
                  name="minMoney"
                  inputMode="decimal"
                />
                <FilterField
                  query={filterQuery}
                  label="Points at least"
                  name="minPoints"
                  inputMode="numeric"
                />
                <FilterField
                  query={filterQuery}
                  label="Referrals at least"
                  name="minReferrals"
                  inputMode="numeric"
                />
              </FormLayout.Group>
            </FormLayout>
          </FilterBar>
          {list ? (
            <>
              <IndexTable
                resourceName={{ singular: "ambassador", plural: "ambassadors" }}
                itemCount={list.rows.length}
                selectable={false}
                emptyState={
                  <EmptyListState
                    heading="No ambassadors found"
                    action={{ content: "Clear filters", url: href("/app/ambassadors") }}
                  >
                    <p>Customers become ambassadors when they join your program or refer a friend. Try other filters.</p>
                  </EmptyListState>
                }
                headings={[
                  { title: "Ambassador" },
                  { title: "Balance", alignment: "end" },
                  { title: "Points", alignment: "end" },
                  { title: "Paid out", alignment: "end" },
                  { title: "Referrals", alignment: "end" },
                  { title: "Joined" },
                  { title: "Fraud score" },
                ]}
              >
                {list.rows.map((row, index) => (
                  <IndexTable.Row id={row.email} key={row.email} position={index}>
                    <IndexTable.Cell>
                      <BlockStack gap="050">
                        <Link url={href(`/app/ambassadors/${encodeURIComponent(row.email)}`)} removeUnderline dataPrimaryLink>
                          <Text as="span" fontWeight="semibold">
                            {row.name ?? row.email}
                          </Text>
                        </Link>
                        <Text as="span" variant="bodySm" tone="subdued">
                          {row.email}
                          {row.sandbox ? " · Sandbox" : ""}
                        </Text>
                      </BlockStack>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Text as="span" alignment="end" numeric>
                        {formatAmount(row.balanceMoney)}
                      </Text>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Text as="span" alignment="end" numeric>
                        {formatPoints(row.balancePoints)}
                      </Text>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Text as="span" alignment="end" numeric>
                        {formatAmount(row.moneyPaid)}
                      </Text>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Text as="span" alignment="end" numeric>
                        {formatCount(row.uniqueReferrals ?? 0)}
                      </Text>
                    </IndexTable.Cell>
                    <IndexTable.Cell>{formatDate(row.createdAt)}</IndexTable.Cell>
                    <IndexTable.Cell>
                      <Text as="span" tone={row.fraudScore && row.fraudScore >= 50 ? "critical" : "subdued"}>
                        {row.fraudLabel ?? (row.fraudScore ? `${row.fraudScore}%` : "Low")}
                      </Text>
                    </IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
              {list.page > 1 || list.hasMore ? (
                <Box padding="400">
                  <PagingBar
                    page={list.page}
                    hasMore={list.hasMore}
                    hrefOf={(page) => href("/app/ambassadors", { ...filterParams, page })}
                    label={`Page ${list.page} · up to 100 per page`}
                  />
                </Box>
              ) : null}
            </>
          ) : null}
        </Card>
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Ambassadors" />;
}
