import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link as RemixLink, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, DataTable, InlineStack, Layout, Page, Text, type BadgeProps } from "@shopify/polaris";
import { useState } from "react";
import { useEmbeddedHref } from "../entry/admin/components/embedded-url";
import { formatDateTime } from "../entry/admin/components/format";
import { RouteErrorBoundary } from "../entry/admin/components/RouteErrorBoundary";
import prisma from "../wiring/db.server";
import { getDataRequest, listDataRequests } from "../domains/privacy/data-requests.server";
import {
  dataRequestActionSchema,
  dataRequestViewQuery,
  listRedactions,
  readRedactAtService,
  retryDataRequest,
  retryRedaction,
  saveRedactAtService,
} from "../domains/privacy/privacy-admin.server";
import { authenticate } from "../wiring/shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { id } = dataRequestViewQuery.parse({ id: new URL(request.url).searchParams.get("id") ?? undefined });
  const [requests, redactions, redactAtService, selected] = await Promise.all([
    listDataRequests(prisma, session.shop),
    listRedactions(prisma, session.shop),
    readRedactAtService(prisma, session.shop),
    id ? getDataRequest(prisma, session.shop, id) : Promise.resolve(null),
  ]);
  return { requests, redactions, redactAtService, selected };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const parsed = dataRequestActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { ok: false, message: "That request could not be understood. Reload the page and try again." };
  const input = parsed.data;
  if (input.intent === "settings") {
    await saveRedactAtService(prisma, session.shop, input.redactAtService);
    return { ok: true, message: "Saved." };
  }
  const retried =
    input.intent === "retry-request"
      ? await retryDataRequest(prisma, session.shop, input.id)
      : await retryRedaction(prisma, session.shop, input.id);
  return retried
    ? { ok: true, message: "Started again. This page shows the result when it is done." }
    : { ok: false, message: "Only a failed request can be started again. Reload the page." };
};

const STATUS: Record<string, [string, BadgeProps["tone"], BadgeProps["progress"]]> = {
  open: ["Being prepared", "attention", "incomplete"],
  ready: ["Ready", "success", "complete"],
  failed: ["Failed", "critical", "incomplete"],
  expired: ["Report deleted", undefined, "complete"],
};

const SERVICE_STATE: Record<string, string> = {
  pending: "Erasing at the referral service",
  done: "Erased at the referral service",
  failed: "Erasure at the referral service failed",
  not_requested: "Not erased at the service (turned off)",
  not_connected: "No referral service connected",
  no_email: "No email to erase at the service",
};

function StatusBadge({ status }: { status: string }) {
  const [label, tone, progress] = STATUS[status] ?? [status, undefined, undefined];
  return (
    <Badge tone={tone} progress={progress}>
      {label}
    </Badge>
  );
}

function seconds(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}

/** The report file comes through fetch, which App Bridge signs with the session token; a plain link would not be. */
async function downloadReport(href: string, filename: string) {
  const response = await fetch(href);
  if (!response.ok) throw new Error(`Download failed (${response.status})`);
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  URL.revokeObjectURL(url);
}

function DownloadButton({ id }: { id: string }) {
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  return (
    <Button
      size="slim"
      loading={state === "busy"}
      onClick={() => {
        setState("busy");
        downloadReport(`/app/data-requests/${id}/download`, `data-request-${id}.json`).then(
          () => setState("idle"),
          () => setState("failed"),
        );
      }}
    >
      {state === "failed" ? "Download failed, try again" : "Download"}
    </Button>
  );
}

function SettingsCard({ redactAtService }: { redactAtService: boolean }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [checked, setChecked] = useState(redactAtService);
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "settings";
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Erasure requests
        </Text>
        <Checkbox
          label="Also erase the customer at the referral service"
          helpText="When Shopify asks to erase a customer, the app deletes its own records of them and, with this on, asks the referral service to remove all their personal data (compliance/remove). This cannot be undone."
          checked={checked}
          onChange={setChecked}
        />
        <Box>
          <Button loading={saving} onClick={() => submit({ intent: "settings", redactAtService: String(checked) }, { method: "post" })}>
            Save
          </Button>
        </Box>
      </BlockStack>
    </Card>
  );
}

export default function DataRequests() {
  const { requests, redactions, redactAtService, selected } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const href = useEmbeddedHref();
  const open = requests.filter((r) => r.status === "open").length;

  const rows = requests.map((r) => [
    <BlockStack key="who" gap="050">
      <Text as="span" fontWeight="semibold">
        {r.email ?? `Customer ${r.customerId ?? "unknown"}`}
      </Text>
      {r.requestId ? (
        <Text as="span" tone="subdued" variant="bodySm">
          Request {r.requestId}
        </Text>
      ) : null}
    </BlockStack>,
    formatDateTime(r.receivedAt),
    <BlockStack key="status" gap="050">
      <StatusBadge status={r.status} />
      {r.statusDetail ? (
        <Text as="span" tone="subdued" variant="bodySm" breakWord>
          {r.statusDetail}
        </Text>
      ) : null}
    </BlockStack>,
    seconds(r.tookMs),
    <InlineStack key="actions" gap="200" wrap={false}>
      {r.status === "ready" ? (
        <>
          <RemixLink to={href("/app/data-requests", { id: r.id })}>View</RemixLink>
          <DownloadButton id={r.id} />
        </>
      ) : null}
      {r.status === "failed" ? (
        <Button size="slim" onClick={() => submit({ intent: "retry-request", id: r.id }, { method: "post" })}>
          Retry
        </Button>
      ) : null}
    </InlineStack>,
  ]);

  const redactionRows = redactions.map((r) => [
    formatDateTime(r.requestedAt),
    Object.entries(r.deleted)
      .filter(([, n]) => n > 0)
      .map(([what, n]) => `${n} ${what}`)
      .join(", ") || "Nothing held",
    <BlockStack key="service" gap="050">
      <Text as="span">{SERVICE_STATE[r.serviceState] ?? r.serviceState}</Text>
      {r.serviceDetail ? (
        <Text as="span" tone="subdued" variant="bodySm" breakWord>
          {r.serviceDetail}
        </Text>
      ) : null}
    </BlockStack>,
    r.serviceState === "failed" ? (
      <Button key="retry" size="slim" onClick={() => submit({ intent: "retry-redaction", id: r.id }, { method: "post" })}>
        Retry
      </Button>
    ) : (
      ""
    ),
  ]);

  return (
    <Page title="Data requests" subtitle="Customers' requests for their data, and erasures, sent by Shopify">
      <Layout>
        {open > 0 ? (
          <Layout.Section>
            <Banner tone="info" title={open === 1 ? "A data request is being prepared" : `${open} data requests are being prepared`}>
              <Text as="p">
                The app is collecting what it and the referral service hold about the customer. The report appears here when
                it is ready, usually within minutes; send it to the customer within 30 days of the request.
              </Text>
            </Banner>
          </Layout.Section>
        ) : null}
        {result ? (
          <Layout.Section>
            <Banner tone={result.ok ? "success" : "critical"}>{result.message}</Banner>
          </Layout.Section>
        ) : null}
        {selected?.report ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    Report for {selected.email ?? `customer ${selected.customerId ?? "unknown"}`}
                  </Text>
                  <InlineStack gap="200">
                    <DownloadButton id={selected.id} />
                    <RemixLink to={href("/app/data-requests")}>Close</RemixLink>
                  </InlineStack>
                </InlineStack>
                <Box background="bg-surface-secondary" padding="300" borderRadius="200" overflowX="scroll">
                  <pre style={{ margin: 0, fontSize: "12px" }}>{JSON.stringify(JSON.parse(selected.report), null, 2)}</pre>
                </Box>
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            {rows.length === 0 ? (
              <Box padding="400">
                <Text as="p" tone="subdued">
                  No data requests yet. When a customer asks the shop for their data, Shopify tells the app and the report is
                  prepared here.
                </Text>
              </Box>
            ) : (
              <DataTable
                columnContentTypes={["text", "text", "text", "text", "text"]}
                headings={["Customer", "Received", "Status", "Took", ""]}
                rows={rows}
                verticalAlign="middle"
              />
            )}
          </Card>
        </Layout.Section>
        <Layout.Section>
          <SettingsCard redactAtService={redactAtService} />
        </Layout.Section>
        {redactionRows.length > 0 ? (
          <Layout.Section>
            <Card padding="0">
              <Box padding="400">
                <Text as="h2" variant="headingMd">
                  Erasures carried out
                </Text>
              </Box>
              <DataTable
                columnContentTypes={["text", "text", "text", "text"]}
                headings={["Received", "Deleted in the app", "Referral service", ""]}
                rows={redactionRows}
                verticalAlign="middle"
              />
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary title="Data requests" />;
}
