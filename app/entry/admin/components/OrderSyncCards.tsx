import { Form, useNavigation, useRevalidator, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, ProgressBar, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import type { MerchantError } from "../merchant-error";
import type { OrderSyncView } from "../order-sync-view.server";
import { ALL_ORDERS_SCOPE } from "../../../platform/shopify-admin/optional-scopes";
import { formatCount, formatDateTime, plural } from "./format";
import { requestScopes } from "./scope-request";

/** The Overview's action is asked to read the granted scopes from Shopify again. */
export const REFRESH_SCOPES_INTENT = "refresh-scopes";

/**
 * "Request access to older orders": App Bridge's permission dialog for
 * read_all_orders, then the Overview reads the grant from Shopify.
 */
function OlderOrdersAccess({ days }: { days: number }) {
  const submit = useSubmit();
  const [asking, setAsking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ask = async () => {
    setAsking(true);
    setProblem(null);
    try {
      const answer = await requestScopes([ALL_ORDERS_SCOPE]);
      if (answer === "granted") submit({ intent: REFRESH_SCOPES_INTENT }, { method: "post" });
      else if (answer === "declined") setProblem(`Not granted: backfills stay within the last ${days} days.`);
      else setProblem("Open the app from your Shopify admin to grant access.");
    } catch {
      // Shopify offers read_all_orders only once it has approved the app's request for it.
      setProblem("Shopify didn't offer this permission: the app's access to all orders isn't approved by Shopify yet. Backfills stay within the last " + days + " days.");
    } finally {
      setAsking(false);
    }
  };
  return (
    <BlockStack gap="100">
      <Text as="p" variant="bodySm" tone="subdued">
        Shopify shows the app the last {days} days of orders. To send older ones, allow the app to read all of your orders.
      </Text>
      <InlineStack>
        <Button onClick={ask} loading={asking}>
          Request access to older orders
        </Button>
      </InlineStack>
      {problem ? (
        <Text as="p" variant="bodySm" tone="caution">
          {problem}
        </Text>
      ) : null}
    </BlockStack>
  );
}

/** Sidebar: when the app last read the shop's orders back from Shopify, and what webhooks had missed. */
export function ReconcileCard({ sync }: { sync: OrderSyncView }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          Checked against Shopify
        </Text>
        <Text as="p" variant="bodySm" tone="subdued">
          Every few minutes the app reads your recent orders from Shopify, so an order whose notification never arrived is still recorded, once.
        </Text>
        <Text as="p">{sync.reconciledAt ? `Last checked ${formatDateTime(sync.reconciledAt)}` : "Not checked yet: the first check runs a few minutes after you connect."}</Text>
        <Text as="p" tone={sync.missedOrders > 0 ? undefined : "subdued"}>
          {sync.missedOrders === 0 && sync.missedChanges === 0
            ? "No missed orders found so far."
            : `Found ${plural(sync.missedOrders, "order")} and ${plural(sync.missedChanges, "cancellation or refund", "cancellations or refunds")} that Shopify's notifications missed.`}
        </Text>
        {sync.reconcileError ? (
          <Text as="p" tone="critical">
            The last check stopped: {sync.reconcileError} The next one starts where it stopped.
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}

/** Main column: send the orders of the last N days once, with its progress while it runs. */
export function BackfillCard({ sync, error }: { sync: OrderSyncView; error: MerchantError | null }) {
  const { backfill } = sync;
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const [days, setDays] = useState(String(sync.defaultDays));
  const running = backfill?.status === "running";
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 2_000);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const wanted = Number(days);
  const needsAllOrders = wanted > sync.daysWithoutAllOrders && !sync.allOrders;
  const progress = backfill?.total ? Math.min(100, (backfill.seen / backfill.total) * 100) : 0;

  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Past orders
        </Text>
        {error ? (
          <Banner tone="critical" title={error.title}>
            <Text as="p">{error.message}</Text>
          </Banner>
        ) : null}
        {running ? (
          <BlockStack gap="200">
            <Text as="p">
              Sending the orders of the last {plural(backfill.days, "day")}:{" "}
              {backfill.total === null ? "counting them…" : `${formatCount(Math.min(backfill.seen, backfill.total))} of ${formatCount(backfill.total)}`}
            </Text>
            <ProgressBar progress={progress} tone="primary" />
            <Text as="p" variant="bodySm" tone="subdued">
              You can leave this page; the app carries on, and picks up where it stopped after a restart.
            </Text>
          </BlockStack>
        ) : (
          <BlockStack gap="300">
            {backfill?.status === "done" ? (
              <Text as="p">
                The orders of the last {plural(backfill.days, "day")} were sent {backfill.finishedAt ? formatDateTime(backfill.finishedAt) : ""}: {formatCount(backfill.seen)} read,{" "}
                {plural(backfill.added, "order")} new to the app.
              </Text>
            ) : backfill?.status === "failed" ? (
              <Banner tone="critical" title="The last backfill stopped">
                <Text as="p">{backfill.error ?? "Shopify refused the request."} Start it again to carry on.</Text>
              </Banner>
            ) : (
              <Text as="p">
                Orders placed before you connected can be sent to your referral program too: referred ones are recorded, each once, even if they were recorded before.
              </Text>
            )}
            <Form method="post">
              <input type="hidden" name="intent" value="backfill" />
              <BlockStack gap="200">
                <InlineStack gap="300" blockAlign="end">
                  <div style={{ width: 160 }}>
                    <TextField label="Days back" name="days" type="number" min={1} autoComplete="off" value={days} onChange={setDays} />
                  </div>
                  <Button submit variant={backfill ? undefined : "primary"} loading={navigation.state === "submitting"} disabled={needsAllOrders}>
                    {`Send the last ${plural(Number.isFinite(wanted) && wanted > 0 ? wanted : sync.defaultDays, "day")}`}
                  </Button>
                </InlineStack>
                {sync.allOrders ? (
                  <Text as="p" variant="bodySm" tone="subdued">
                    The app may read all of your orders (read_all_orders granted).
                  </Text>
                ) : (
                  <>
                    {needsAllOrders ? (
                      <Text as="p" variant="bodySm" tone="critical">
                        More than {sync.daysWithoutAllOrders} days back needs access to older orders.
                      </Text>
                    ) : null}
                    <OlderOrdersAccess days={sync.daysWithoutAllOrders} />
                  </>
                )}
              </BlockStack>
            </Form>
          </BlockStack>
        )}
      </BlockStack>
    </Card>
  );
}
