import { Form, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Button, IndexTable, InlineStack, Link, Text } from "@shopify/polaris";
import type { ActivityRow } from "../activity.server";
import { shopifyOrderUrl } from "../order-links";
import { useEmbeddedHref } from "./embedded-url";
import { formatAmount, formatDate, formatDateTime } from "./format";
import { OrderExplanation } from "./OrderExplanation";
import { CommissionStatusBadge, OrderStatusBadge } from "./StatusBadges";

function RowActions({ row }: { row: ActivityRow }) {
  const navigation = useNavigation();
  const href = useEmbeddedHref();
  const busy = (intent: string) =>
    navigation.state === "submitting" &&
    navigation.formData?.get("orderId") === row.orderId &&
    navigation.formData?.get("intent") === intent;
  const name = row.orderName ?? row.orderId;
  if (!row.retry && !row.canSkip) return null;
  return (
    <InlineStack gap="200" align="end" wrap={false}>
      {row.retry ? (
        <Form method="post">
          <input type="hidden" name="orderId" value={row.orderId} />
          <input type="hidden" name="intent" value="retry" />
          <Button
            submit
            size="slim"
            variant="primary"
            loading={busy("retry")}
            accessibilityLabel={`${row.retry === "resend" ? "Retry" : "Check again"} order ${name}`}
          >
            {row.retry === "resend" ? "Retry now" : "Check again"}
          </Button>
        </Form>
      ) : null}
      {row.retry === "recheck" ? (
        <Button
          size="slim"
          url={href("/app/commissions", { order: row.orderId })}
          accessibilityLabel={`Review the commissions of order ${name}`}
        >
          Review
        </Button>
      ) : null}
      {row.canSkip ? (
        <Form method="post">
          <input type="hidden" name="orderId" value={row.orderId} />
          <input type="hidden" name="intent" value="skip" />
          <Button submit size="slim" variant="tertiary" loading={busy("skip")} accessibilityLabel={`Skip order ${name}`}>
            Skip
          </Button>
        </Form>
      ) : null}
    </InlineStack>
  );
}

export function ActivityTable({ rows, shop, emptyState }: { rows: ActivityRow[]; shop: string; emptyState: React.ReactNode }) {
  return (
    <IndexTable
      resourceName={{ singular: "order", plural: "orders" }}
      itemCount={rows.length}
      selectable={false}
      lastColumnSticky
      emptyState={emptyState}
      headings={[
        { title: "Order" },
        { title: "Customer" },
        { title: "Revenue", alignment: "end" },
        { title: "Status" },
        { title: "Attempts", alignment: "end" },
        { title: "Commission" },
        { title: "Actions", alignment: "end" },
      ]}
    >
      {rows.map((row, index) => (
        <IndexTable.Row id={row.orderId} key={row.orderId} position={index}>
          <IndexTable.Cell>
            <BlockStack gap="050">
              <Link
                url={shopifyOrderUrl(shop, row.orderId)}
                target="_top"
                removeUnderline
                accessibilityLabel={`Open order ${row.orderName ?? row.orderId} in Shopify`}
              >
                <Text as="span" fontWeight="semibold">
                  {row.orderName ?? `Order ${row.orderId}`}
                </Text>
              </Link>
              <Text as="span" variant="bodySm" tone="subdued">
                {formatDate(row.placedAt)}
              </Text>
            </BlockStack>
          </IndexTable.Cell>
          <IndexTable.Cell>
            <BlockStack gap="050">
              <Text as="span">{row.email ?? "—"}</Text>
              {row.code ? (
                <Text as="span" variant="bodySm" tone="subdued">
                  {row.codeKind === "coupon" ? "Coupon" : "Link code"} {row.code}
                </Text>
              ) : null}
            </BlockStack>
          </IndexTable.Cell>
          <IndexTable.Cell>
            <BlockStack gap="050" inlineAlign="end">
              <Text as="span" alignment="end" numeric>
                {formatAmount(row.revenue, row.currency)}
              </Text>
              {row.campaignUids.length ? (
                <Text as="span" variant="bodySm" tone="subdued" alignment="end">
                  {row.campaignUids.length === 1 ? "Campaign" : "Campaigns"} {row.campaignUids.map((uid) => `#${uid}`).join(", ")}
                </Text>
              ) : null}
            </BlockStack>
          </IndexTable.Cell>
          <IndexTable.Cell>
            <div className="rb-status-cell">
              <BlockStack gap="100">
                <InlineStack gap="100">
                  <OrderStatusBadge status={row.status} held={Boolean(row.heldReason)} />
                  {row.flags.length > 0 ? (
                    <span title={row.flags.map((f) => f.label).join("; ")}>
                      <Badge tone="warning">{`Flagged: ${row.flags.length === 1 ? row.flags[0]!.label : `${row.flags.length} rules`}`}</Badge>
                    </span>
                  ) : null}
                </InlineStack>
                {row.heldReason || row.statusReason ? (
                  <Text as="p" variant="bodySm" tone="subdued">
                    {row.heldReason ?? row.statusReason}
                  </Text>
                ) : null}
                {row.lastError && row.status !== "recorded" && row.status !== "reversed" ? (
                  <Text as="p" variant="bodySm" tone="critical">
                    {row.lastError}
                  </Text>
                ) : null}
                {row.explanation ? <OrderExplanation explanation={row.explanation} orderName={row.orderName ?? row.orderId} /> : null}
                {row.nextAttemptAt ? (
                  <Text as="p" variant="bodySm" tone="subdued">
                    Next try {formatDateTime(row.nextAttemptAt)}
                  </Text>
                ) : null}
              </BlockStack>
            </div>
          </IndexTable.Cell>
          <IndexTable.Cell>
            <Text as="span" alignment="end" numeric>
              {row.attempts}
            </Text>
          </IndexTable.Cell>
          <IndexTable.Cell>
            {row.commissionState ? (
              <CommissionStatusBadge status={row.commissionState} />
            ) : (
              <Text as="span" tone="subdued">
                —
              </Text>
            )}
          </IndexTable.Cell>
          <IndexTable.Cell>
            <RowActions row={row} />
          </IndexTable.Cell>
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
