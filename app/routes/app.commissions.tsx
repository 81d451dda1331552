import { defer, json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation, useNavigate, useRevalidator } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Card,
  Divider,
  FormLayout,
  List,
  Page,
  ProgressBar,
  Select,
  Tabs,
  Text,
} from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import { commissionBulkView, type CommissionBulkView } from "../domains/commissions/commission-bulk.server";
import { startCommissionBulk } from "../entry/admin/commission-bulk-form.server";
import { COMMISSION_STATUSES } from "../domains/commissions/commission-status";
import { decideCommissions, listCommissionsPage, parseCommissionQuery } from "../entry/admin/commissions.server";
import { appAdminContext } from "../wiring/admin-context.server";
import { readIntent } from "../entry/admin/intent";
import { deferService, withService } from "../entry/admin/shop-service.server";
import { CommissionsTable } from "../entry/admin/components/CommissionsTable";
import { Deferred, RowsSkeleton } from "../entry/admin/components/Deferred";
import { NotConnectedState } from "../entry/admin/components/EmptyStates";
import { useEmbeddedHref } from "../entry/admin/components/embedded-url";
import { FilterBar } from "../entry/admin/components/FilterBar";
import { FilterField } from "../entry/admin/components/FilterField";
import { plural } from "../entry/admin/components/format";
import { PagingBar } from "../entry/admin/components/PagingBar";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import { ServiceErrorBanner } from "../entry/admin/components/ServiceErrorBanner";
import { authenticate } from "../wiring/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const query = parseCommissionQuery(new URL(request.url).searchParams);
  const [service, bulk] = await Promise.all([
    deferService(ctx, session.shop, (client) => listCommissionsPage(ctx, session.shop, client, query)),
    commissionBulkView(ctx.db, session.shop),
  ]);
  return defer({
    bulk,
    filters: query.filters,
    filterErrors: query.errors,
    rawFilters: query.raw,
    notConnected: service.ok ? null : service.error,
    // Streamed: the page and its filters paint while the service answers.
    list: service.ok ? service.answer : null,
  });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const ctx = appAdminContext();
  const form = await request.formData();
  const intent = readIntent(form, ["decide", "decide-all"]);
  if (intent === "decide-all") {
    const started = await startCommissionBulk(ctx.db, session.shop, form);
    return started.ok
      ? json({ ok: true as const, bulkStarted: started.runId })
      : json({ ok: false as const, error: started.error }, { status: 400 });
  }
  if (intent !== "decide") {
    return json({ ok: false as const, fieldErrors: { form: "Unknown form." } }, { status: 400 });
  }
  const result = await withService(ctx, session.shop, (client) => decideCommissions(ctx, session.shop, client, form));
  if (!result.ok) return json({ ok: false as const, error: result.error }, { status: 502 });
  return json(result.value, { status: result.value.ok ? 200 : 400 });
};

const STATUS_TABS = [
  { id: "all", content: "All" },
  ...COMMISSION_STATUSES.map((s) => ({ id: s, content: `${s[0]!.toUpperCase()}${s.slice(1)}` })),
];

/** How often the page reloads its data while a decision on all matching commissions runs. */
const BULK_POLL_MS = 1_500;

/** The decision on all matching commissions: its progress while it runs, then what it did. */
function BulkBanner({ bulk }: { bulk: CommissionBulkView }) {
  const verb = bulk.decision === "approve" ? "approved" : "denied";
  const decided = bulk.succeeded + bulk.skipped + bulk.failed;
  if (bulk.status === "running") {
    const reading = bulk.phase === "collect" || bulk.total === null;
    const progress = reading ? 0 : bulk.total === 0 ? 100 : Math.round((decided / bulk.total!) * 100);
    return (
      <Banner tone="info" title={`${bulk.decision === "approve" ? "Approving" : "Denying"} every matching pending commission`}>
        <BlockStack gap="200">
          <Text as="p">
            {reading
              ? bulk.pagesRead === 0
                ? "Starting: the list of matching pending commissions is read first. You can leave this page; it carries on."
                : `Reading the list of matching pending commissions: ${plural(bulk.pagesRead, "page")} of 100 read so far.`
              : `${decided} of ${plural(bulk.total!, "commission")} done (${
                  bulk.succeeded
                } ${verb}). You can leave this page; it carries on.`}
          </Text>
          <ProgressBar progress={progress} size="small" />
        </BlockStack>
      </Banner>
    );
  }
  if (bulk.status === "failed") {
    return (
      <Banner
        tone="critical"
        title={`The ${bulk.decision === "approve" ? "approval" : "denial"} of all matching commissions stopped`}
      >
        <Text as="p">
          {bulk.error ?? "It stopped."} {decided > 0 ? `${bulk.succeeded} ${verb} before it stopped.` : null}
        </Text>
      </Banner>
    );
  }
  return (
    <Banner
      tone={bulk.failed === 0 ? "success" : "warning"}
      title={`${plural(bulk.succeeded, "commission")} ${verb}${
        bulk.failed > 0 ? `, ${plural(bulk.failed, "commission")} not changed` : ""
      }`}
    >
      <BlockStack gap="200">
        <Text as="p">
          {bulk.decision === "approve" ? "The ambassadors' balances include them now." : "They won't be paid out."}
          {bulk.skipped > 0 ? ` ${plural(bulk.skipped, "commission")} had already been approved or denied.` : null}
        </Text>
        {bulk.failures.length > 0 ? (
          <List type="bullet">
            {bulk.failures.map((f) => (
              <List.Item key={f.uid}>
                Commission {f.uid}: {f.message.replace(/^Not changed: /, "")}
              </List.Item>
            ))}
          </List>
        ) : null}
      </BlockStack>
    </Banner>
  );
}

/** Reloads the page's data now and then while `active`. */
function useRevalidateWhile(active: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active || state !== "idle") return;
    const timer = setTimeout(revalidate, BULK_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, revalidate, state]);
}

function DecisionBanner({ result }: { result: NonNullable<ReturnType<typeof useActionData<typeof action>>> }) {
  if ("error" in result) return <ServiceErrorBanner error={result.error} />;
  if ("bulkStarted" in result) return null;
  if (!("results" in result)) {
    return (
      <Banner tone="critical" title="Nothing was changed">
        <Text as="p">{Object.values(result.fieldErrors).join(" ")}</Text>
      </Banner>
    );
  }
  const verb = result.decision === "approve" ? "approved" : "denied";
  const failures = result.results.filter((r) => !r.ok);
  return (
    <Banner
      tone={failures.length === 0 ? "success" : result.succeeded > 0 ? "warning" : "critical"}
      title={
        failures.length === 0
          ? `${plural(result.succeeded, "commission")} ${verb}`
          : `${result.succeeded} ${verb}, ${plural(failures.length, "commission")} not changed`
      }
    >
      {failures.length > 0 ? (
        <List type="bullet">
          {failures.map((f) => (
            <List.Item key={f.uid}>
              Commission {f.uid}: {f.message.replace(/^Not changed: /, "")}
            </List.Item>
          ))}
        </List>
      ) : (
        <Text as="p">
          {result.decision === "approve" ? "The ambassadors' balances include them now." : "They won't be paid out."}
        </Text>
      )}
    </Banner>
  );
}

export default function Commissions() {
  const { bulk, filters, filterErrors, rawFilters, list, notConnected } = useLoaderData<typeof loader>();
  const bulkRunning = bulk?.status === "running";
  useRevalidateWhile(bulkRunning);
  const filterQuery = { raw: rawFilters, errors: filterErrors };
  const result = useActionData<typeof action>();
  const href = useEmbeddedHref();
  const navigate = useNavigate();
  const location = useLocation();
  const [sandbox, setSandbox] = useState(filters.sandbox ?? "");
  const [welcome, setWelcome] = useState(filters.welcome ?? "");

  const results = useMemo(
    () => (result && "results" in result ? Object.fromEntries(result.results.map((r) => [r.uid, r])) : {}),
    [result]
  );
  const filterParams = { ...filters, page: undefined } as Record<string, string | undefined>;
  const bulkFilters = new URLSearchParams(
    Object.entries(filterParams).filter((entry): entry is [string, string] => typeof entry[1] === "string")
  ).toString();
  const clearHref = href("/app/commissions");
  const emptyAction = useMemo(() => ({ content: "Clear filters", url: clearHref }), [clearHref]);
  const hrefWith = (changes: Record<string, string | number | undefined>) =>
    href("/app/commissions", { ...filterParams, ...changes });

  if (notConnected || !list) {
    return (
      <Page title="Commissions">
        <NotConnectedState error={notConnected!} />
      </Page>
    );
  }
  const selectedTab = Math.max(
    0,
    STATUS_TABS.findIndex((t) => t.id === (filters.status ?? "all"))
  );
  return (
    <Page title="Commissions" subtitle="Approve or deny what your ambassadors earned. Only pending commissions can change.">
      <BlockStack gap="400">
        {bulk ? <BulkBanner bulk={bulk} /> : null}
        {result ? <DecisionBanner result={result} /> : null}
        <Card padding="0">
          {/* Polaris draws the tabs once it has measured them, after hydration; the space is kept from the start. */}
          <div className="rb-tabs">
            <Tabs
              tabs={STATUS_TABS}
              selected={selectedTab}
              onSelect={(i) =>
                navigate(hrefWith({ status: STATUS_TABS[i]!.id === "all" ? undefined : STATUS_TABS[i]!.id, order: undefined }))
              }
            />
          </div>
          <Divider />
          {filters.order ? null : (
            <FilterBar label="Filter commissions" clearTo={location.pathname} keep={{ status: filters.status }}>
              <FormLayout>
                <FormLayout.Group condensed>
                  <FilterField query={filterQuery} label="Ambassador email" name="email" type="email" />
                  <FilterField query={filterQuery} label="Created from" name="from" type="date" />
                  <FilterField query={filterQuery} label="Created to" name="to" type="date" />
                  <Select
                    label="Sandbox"
                    name="sandbox"
                    options={[
                      { label: "All", value: "" },
                      { label: "Sandbox only", value: "only" },
                      { label: "Live only", value: "exclude" },
                    ]}
                    value={sandbox}
                    onChange={setSandbox}
                  />
                  <Select
                    label="Welcome bonus"
                    name="welcome"
                    options={[
                      { label: "All", value: "" },
                      { label: "Only bonuses", value: "only" },
                      { label: "No bonuses", value: "exclude" },
                    ]}
                    value={welcome}
                    onChange={setWelcome}
                  />
                </FormLayout.Group>
              </FormLayout>
            </FilterBar>
          )}
          <Deferred resolve={list} fallback={<RowsSkeleton label="Loading commissions" rows={8} />}>
            {(answer) =>
              answer.ok ? (
                <>
                  {answer.value.orderFilter ? (
                    <Box padding="400">
                      <Banner
                        tone="info"
                        title={`Commissions of order ${answer.value.orderFilter.name ?? answer.value.orderFilter.id}`}
                        action={{ content: "Show all commissions", url: href("/app/commissions") }}
                      >
                        <Text as="p">
                          {answer.value.orderFilter.known
                            ? "Every campaign's commission for this order. An approved commission can't be changed here any more; adjust it in your referral program's dashboard."
                            : "This order isn't one of your store's recorded orders."}
                        </Text>
                      </Banner>
                    </Box>
                  ) : null}
                  <CommissionsTable
                    rows={answer.value.rows}
                    results={results}
                    pointName={answer.value.pointName}
                    emptyAction={emptyAction}
                    hasMore={answer.value.hasMore}
                    filterQuery={bulkFilters}
                    bulkBusy={bulkRunning}
                  />
                  {answer.value.page > 1 || answer.value.hasMore ? (
                    <Box padding="400">
                      <PagingBar
                        page={answer.value.page}
                        hasMore={answer.value.hasMore}
                        hrefOf={(page) => hrefWith({ page })}
                        label={`Page ${answer.value.page} · up to ${answer.value.perPage} per page`}
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
  return <RouteErrorBoundary title="Commissions" />;
}
