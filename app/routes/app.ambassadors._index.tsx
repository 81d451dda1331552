import { defer, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { BlockStack, Box, Card, FormLayout, IndexTable, Link, Page, Select, Text } from "@shopify/polaris";
import { useState } from "react";
import { listAmbassadorsPage, parseAmbassadorQuery } from "../entry/admin/ambassadors.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { deferService } from "../entry/admin/shop-service.server";
import { Deferred, RowsSkeleton } from "../entry/admin/components/Deferred";
import { EmptyListState, NotConnectedState } from "../entry/admin/components/EmptyStates";
import { useEmbeddedHref } from "../entry/admin/components/embedded-url";
import { FilterBar } from "../entry/admin/components/FilterBar";
import { FilterField } from "../entry/admin/components/FilterField";
import { formatAmount, formatCount, formatDate, formatPoints } from "../entry/admin/components/format";
import { PagingBar } from "../entry/admin/components/PagingBar";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import { ServiceErrorBanner } from "../entry/admin/components/ServiceErrorBanner";
import { authenticate } from "../wiring/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const query = parseAmbassadorQuery(new URL(request.url).searchParams);
  const service = await deferService(appAdminContext(), session.shop, async (client) => {
    const [page, groups] = await Promise.all([listAmbassadorsPage(client, query), client.listGroups()]);
    return { ...page, groups: groups.map((g) => ({ id: g.groupId, name: g.name ?? `Group ${g.groupId}` })) };
  });
  return defer({
    filters: query.filters,
    rawFilters: query.raw,
    filterErrors: query.errors,
    notConnected: service.ok ? null : service.error,
    // Streamed: the page and its filters paint while the service answers.
    list: service.ok ? service.answer : null,
  });
};

/** The program's groups to filter by; until they come, the one chosen keeps its place. */
function GroupSelect({ groups, value, onChange }: { groups: { id: string; name: string }[] | null; value: string; onChange(value: string): void }) {
  const options = groups ?? (value ? [{ id: value, name: `Group ${value}` }] : []);
  return (
    <Select
      label="Group"
      name="group"
      options={[{ label: "All groups", value: "" }, ...options.map((g) => ({ label: g.name, value: g.id }))]}
      value={value}
      onChange={onChange}
    />
  );
}

export default function Ambassadors() {
  const { filters, rawFilters, filterErrors, list, notConnected } = useLoaderData<typeof loader>();
  const filterQuery = { raw: rawFilters, errors: filterErrors };
  const href = useEmbeddedHref();
  const location = useLocation();
  const [active, setActive] = useState(filters.active ?? "");
  const [group, setGroup] = useState(filters.group ?? "");

  if (notConnected || !list) {
    return (
      <Page title="Ambassadors">
        <NotConnectedState error={notConnected!} />
      </Page>
    );
  }
  const filterParams = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v === undefined ? undefined : String(v)]));
  return (
    <Page title="Ambassadors" subtitle="The people who share your store, with what they earned and referred.">
      <BlockStack gap="400">
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
                <Deferred resolve={list} fallback={<GroupSelect groups={null} value={group} onChange={setGroup} />}>
                  {(answer) => <GroupSelect groups={answer.ok ? answer.value.groups : null} value={group} onChange={setGroup} />}
                </Deferred>
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
          <Deferred resolve={list} fallback={<RowsSkeleton label="Loading ambassadors" rows={8} />}>
            {(answer) =>
              answer.ok ? (
                <>
                  <IndexTable
                    resourceName={{ singular: "ambassador", plural: "ambassadors" }}
                    itemCount={answer.value.rows.length}
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
                    {answer.value.rows.map((row, index) => (
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
                  {answer.value.page > 1 || answer.value.hasMore ? (
                    <Box padding="400">
                      <PagingBar
                        page={answer.value.page}
                        hasMore={answer.value.hasMore}
                        hrefOf={(page) => href("/app/ambassadors", { ...filterParams, page })}
                        label={`Page ${answer.value.page} · up to 100 per page`}
                      />
                    </Box>
                  ) : null}
                </>
              ) : (
                <Box padding="400">
                  <ServiceErrorBanner error={answer.error} />
                </Box>
              )
            }
          </Deferred>
        </Card>
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Ambassadors" />;
}
