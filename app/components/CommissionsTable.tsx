import { useNavigation, useSubmit } from "@remix-run/react";
import { Badge, BlockStack, Button, IndexTable, InlineStack, Link, Text, useIndexResourceState } from "@shopify/polaris";
import type { CommissionRow, DecisionRowResult } from "../admin/commissions.server";
import { EmptyListState } from "./EmptyStates";
import { formatAmount, formatDate, formatPoints } from "./format";
import { CommissionStatusBadge, FraudBadge } from "./StatusBadges";

const selectionValue = (row: CommissionRow) => (row.transactionId ? `${row.uid}:${row.transactionId}` : row.uid);

function Fraud({ fraud, guardFlag }: { fraud: CommissionRow["fraud"]; guardFlag: string | null }) {
  return (
    <BlockStack gap="100">
      {guardFlag ? (
        <span title={guardFlag}>
          <Badge tone="warning">Flagged by the app</Badge>
        </span>
      ) : null}
      <InlineStack gap="100" blockAlign="center" wrap={false}>
        <FraudBadge status={fraud?.status ?? null} />
        {fraud?.score ? (
          <Text as="span" variant="bodySm" tone="subdued">
            {fraud.score}%
          </Text>
        ) : null}
      </InlineStack>
      {fraud && fraud.reasons.length > 0 ? (
        <div className="rb-wrap">
          <Text as="p" variant="bodySm" tone="subdued">
            {fraud.reasons.join("; ")}
          </Text>
        </div>
      ) : null}
    </BlockStack>
  );
}

export function CommissionsTable({
  rows,
  results,
  pointName,
  emptyAction,
}: {
  rows: CommissionRow[];
  pointName: string;
  /** What happened to each row in the last approve/deny, by commission uid. */
  results: Record<string, DecisionRowResult>;
  emptyAction?: { content: string; url: string };
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const pending = rows.filter((r) => r.status === "pending");
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(
    pending.map((r) => ({ id: r.uid }))
  );
  const deciding = navigation.state === "submitting" && navigation.formData?.get("intent") === "decide";
  const decidingUids = deciding ? navigation.formData!.getAll("commissions").map((v) => String(v).split(":")[0]) : [];

  function decide(decision: "approve" | "deny", uids: string[]) {
    const form = new FormData();
    form.set("intent", "decide");
    form.set("decision", decision);
    for (const row of rows) if (uids.includes(row.uid)) form.append("commissions", selectionValue(row));
    submit(form, { method: "post" });
    clearSelection();
  }

  const chosen = allResourcesSelected ? pending.map((r) => r.uid) : selectedResources;
  return (
    <IndexTable
      resourceName={{ singular: "commission", plural: "commissions" }}
      itemCount={rows.length}
      selectable={pending.length > 0}
      selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
      onSelectionChange={handleSelectionChange}
      promotedBulkActions={[
        { content: "Approve", onAction: () => decide("approve", chosen) },
        { content: "Deny", onAction: () => decide("deny", chosen) },
      ]}
      loading={deciding}
      lastColumnSticky
      emptyState={
        <EmptyListState heading="No commissions found" action={emptyAction}>
          <p>Commissions appear when referred orders are recorded. Try other filters, or clear them.</p>
        </EmptyListState>
      }
      headings={[
        { title: "Created" },
        { title: "Ambassador" },
        { title: "Referred customer" },
        { title: "Campaign" },
        { title: "Commission", alignment: "end" },
        { title: "Status" },
        { title: "Fraud check" },
        { title: "Order" },
        { title: "Actions", alignment: "end" },
      ]}
    >
      {rows.map((row, index) => {
        const result = results[row.uid];
        const busy = decidingUids.includes(row.uid);
        return (
          <IndexTable.Row
            id={row.uid}
            key={row.uid}
            position={index}
            selected={selectedResources.includes(row.uid)}
            disabled={row.status !== "pending"}
          >
            <IndexTable.Cell>
              <Text as="span" variant="bodySm">
                {formatDate(row.createdAt)}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <BlockStack gap="050">
                <Text as="span" fontWeight="semibold">
                  {row.ambassadorName ?? row.ambassadorEmail ?? "—"}
                </Text>
                {row.ambassadorName ? (
                  <Text as="span" variant="bodySm" tone="subdued">
                    {row.ambassadorEmail}
                  </Text>
                ) : null}
              </BlockStack>
            </IndexTable.Cell>
            <IndexTable.Cell>
              {row.customerEmail || (
                <Text as="span" tone="subdued">
                  —
                </Text>
              )}
            </IndexTable.Cell>
            <IndexTable.Cell>
              <BlockStack gap="050">
                <Text as="span">{row.campaignName ?? `#${row.campaignUid ?? "?"}`}</Text>
                {row.sandbox || row.welcomeBonus ? (
                  <Text as="span" variant="bodySm" tone="subdued">
                    {[row.sandbox ? "Sandbox" : null, row.welcomeBonus ? "Welcome bonus" : null].filter(Boolean).join(" · ")}
                  </Text>
                ) : null}
              </BlockStack>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <BlockStack gap="050" inlineAlign="end">
                <Text as="span" alignment="end" numeric fontWeight="semibold">
                  {row.amountUnit === "points" ? `${formatPoints(row.amount)} ${pointName}` : formatAmount(row.amount)}
                </Text>
                <Text as="span" alignment="end" variant="bodySm" tone="subdued" numeric>
                  of {formatAmount(row.revenue)}
                </Text>
              </BlockStack>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <BlockStack gap="100">
                <CommissionStatusBadge status={row.status} />
                {result ? (
                  <div className="rb-wrap" role="status">
                    <Text as="span" variant="bodySm" tone={result.ok ? "success" : "critical"}>
                      {result.ok ? `Just ${result.message.toLowerCase()}` : result.message}
                    </Text>
                  </div>
                ) : null}
              </BlockStack>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Fraud fraud={row.fraud} guardFlag={row.guardFlag} />
            </IndexTable.Cell>
            <IndexTable.Cell>
              {row.order ? (
                <Link
                  url={row.order.url}
                  target="_top"
                  removeUnderline
                  accessibilityLabel={`Open order ${row.order.name ?? row.order.id} in Shopify`}
                >
                  {row.order.name ?? `Order ${row.order.id}`}
                </Link>
              ) : (
                <Text as="span" variant="bodySm" tone="subdued">
                  {row.transactionId ?? "—"}
                </Text>
              )}
            </IndexTable.Cell>
            <IndexTable.Cell>
              {row.status === "pending" ? (
                // Clicks on the buttons must not toggle the row's selection.
                <div onClick={(event) => event.stopPropagation()} role="presentation">
                  <InlineStack gap="200" align="end" wrap={false}>
                    <Button
                      size="slim"
                      onClick={() => decide("approve", [row.uid])}
                      loading={busy}
                      accessibilityLabel={`Approve commission ${row.uid}`}
                    >
                      Approve
                    </Button>
                    <Button
                      size="slim"
                      tone="critical"
                      variant="plain"
                      onClick={() => decide("deny", [row.uid])}
                      disabled={busy}
                      accessibilityLabel={`Deny commission ${row.uid}`}
                    >
                      Deny
                    </Button>
                  </InlineStack>
                </div>
              ) : null}
            </IndexTable.Cell>
          </IndexTable.Row>
        );
      })}
    </IndexTable>
  );
}
