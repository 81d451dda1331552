import { useNavigation, useSubmit } from "@remix-run/react";
import { Badge, BlockStack, Button, IndexTable, InlineStack, Link, Text, type IndexTableProps } from "@shopify/polaris";
import { memo, useCallback, useEffect, useMemo, useRef, type RefObject } from "react";
import { commissionEntry } from "../../../domains/commissions/commission-entry";
import type { CommissionRow, DecisionRowResult } from "../commissions.server";
import { EmptyListState } from "./EmptyStates";
import { useRowSelected, useRowSelectionStore, type RowSelectionStore } from "./row-selection";
import { SelectionBar, type BarAction } from "./SelectionBar";
import { SelectableRow } from "./SelectableRow";
import { formatAmount, formatDate, formatPoints } from "./format";
import { CommissionStatusBadge, FraudBadge } from "./StatusBadges";

const selectionValue = (row: CommissionRow) => commissionEntry({ commissionUid: row.uid, transactionId: row.transactionId, campaignUid: row.campaignUid });

function Fraud({ fraud, guardFlag, codeLeaked }: { fraud: CommissionRow["fraud"]; guardFlag: string | null; codeLeaked: CommissionRow["codeLeaked"] }) {
  return (
    <BlockStack gap="100">
      {guardFlag ? (
        <span title={guardFlag}>
          <Badge tone="warning">Flagged by the app</Badge>
        </span>
      ) : null}
      {codeLeaked ? (
        <span title={`${codeLeaked.code} was flagged as leaked on ${formatDate(codeLeaked.flaggedAt)}: used by many buyers who never came through the ambassador's link.`}>
          <Badge tone="critical">Code leaked</Badge>
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

type Decision = "approve" | "deny";

const HEADINGS: IndexTableProps["headings"] = [
  { title: "Created" },
  { title: "Ambassador" },
  { title: "Referred customer" },
  { title: "Campaign" },
  { title: "Commission", alignment: "end" },
  { title: "Status" },
  { title: "Fraud check" },
  { title: "Order" },
  { title: "Actions", alignment: "end" },
];

const RESOURCE_NAME = { singular: "commission", plural: "commissions" };

interface CellsProps {
  row: CommissionRow;
  result: DecisionRowResult | undefined;
  busy: boolean;
  pointName: string;
  onDecide(decision: Decision, row: CommissionRow): void;
}

interface RowProps extends CellsProps {
  position: number;
  selection: RowSelectionStore;
  selectable: boolean;
}

/**
 * One row: the app's own (SelectableRow), not IndexTable.Row, which renders
 * every row again when select mode starts. It reads its own selection from
 * the store, and is memoised with props that stay the same object between
 * renders (the loader's row, stable callbacks): a change of selection
 * renders only the rows whose box changed, and of those only the row and its
 * checkbox, not its cells.
 */
const CommissionTableRow = memo(function CommissionTableRow({ position, selection, selectable, ...cells }: RowProps) {
  const selected = useRowSelected(selection, cells.row.uid);
  return (
    <SelectableRow
      id={cells.row.uid}
      position={position}
      selected={selected}
      disabled={cells.row.status !== "pending"}
      selectable={selectable}
      label={`Select commission ${cells.row.uid}`}
      onToggle={selection.toggleRow}
    >
      <CommissionCells {...cells} />
    </SelectableRow>
  );
});
// Kept in the minified build: the browser test counts the renders of this component.
CommissionTableRow.displayName = "CommissionTableRow";

const CommissionCells = memo(function CommissionCells({ row, result, busy, pointName, onDecide }: CellsProps) {
  return (
    <>
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
          {row.approvesOn && !result ? (
            <Text as="span" variant="bodySm" tone="subdued">
              Approves on {formatDate(row.approvesOn)}
            </Text>
          ) : null}
          {row.codeLeaked?.held && !result ? (
            <div className="rb-wrap" title={row.codeLeaked.held}>
              <Text as="span" variant="bodySm" tone="subdued">
                Held for your review
              </Text>
            </div>
          ) : null}
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
        <Fraud fraud={row.fraud} guardFlag={row.guardFlag} codeLeaked={row.codeLeaked} />
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
                onClick={() => onDecide("approve", row)}
                loading={busy}
                accessibilityLabel={`Approve commission ${row.uid}`}
              >
                Approve
              </Button>
              <Button
                size="slim"
                tone="critical"
                variant="plain"
                onClick={() => onDecide("deny", row)}
                disabled={busy}
                accessibilityLabel={`Deny commission ${row.uid}`}
              >
                Deny
              </Button>
            </InlineStack>
          </div>
        ) : null}
      </IndexTable.Cell>
    </>
  );
});
CommissionCells.displayName = "CommissionCells";

export function CommissionsTable({
  rows,
  results,
  pointName,
  emptyAction,
  hasMore = false,
  filterQuery = "",
  bulkBusy = false,
}: {
  rows: CommissionRow[];
  pointName: string;
  /** What happened to each row in the last approve/deny, by commission uid. */
  results: Record<string, DecisionRowResult>;
  emptyAction?: { content: string; url: string };
  /** More pages match the filters: "select all" can reach past this page. */
  hasMore?: boolean;
  /** The page's filters as a query string, for a decision on all matching commissions. */
  filterQuery?: string;
  /** A decision on all matching commissions is running: no second one. */
  bulkBusy?: boolean;
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const ids = useMemo(() => rows.map((r) => (r.status === "pending" ? r.uid : null)), [rows]);
  const pendingCount = useMemo(() => ids.filter(Boolean).length, [ids]);
  const selection = useRowSelectionStore(ids);
  const tableRef = useRef<HTMLDivElement>(null);
  useCheckboxColumnOffset(tableRef, rows.length > 0 && pendingCount > 0);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  const formData = navigation.state === "submitting" ? navigation.formData : undefined;
  const deciding = formData?.get("intent") === "decide";
  const decidingUids = useMemo(
    () => new Set(formData?.get("intent") === "decide" ? formData.getAll("commissions").map((v) => String(v).split(":")[0]) : []),
    [formData]
  );

  const decide = useCallback(
    (decision: Decision, uids: ReadonlySet<string>) => {
      const form = new FormData();
      form.set("intent", "decide");
      form.set("decision", decision);
      for (const row of rowsRef.current) if (uids.has(row.uid)) form.append("commissions", selectionValue(row));
      submit(form, { method: "post" });
      selection.clear();
    },
    [submit, selection]
  );
  const decideAll = useCallback(
    (decision: Decision) => {
      const form = new FormData();
      form.set("intent", "decide-all");
      form.set("decision", decision);
      form.set("filters", filterQuery);
      submit(form, { method: "post" });
      selection.clear();
    },
    [submit, selection, filterQuery]
  );
  const onDecide = useCallback((decision: Decision, row: CommissionRow) => decide(decision, new Set([row.uid])), [decide]);

  const pageActions = useMemo<BarAction[]>(
    () => [
      { content: "Approve", onAction: () => decide("approve", selection.current().selected) },
      { content: "Deny", onAction: () => decide("deny", selection.current().selected) },
    ],
    [decide, selection]
  );
  const allActions = useMemo<BarAction[]>(
    () => [
      { content: "Approve all matching", onAction: () => decideAll("approve"), disabled: bulkBusy },
      { content: "Deny all matching", onAction: () => decideAll("deny"), disabled: bulkBusy },
    ],
    [decideAll, bulkBusy]
  );
  const emptyState = useMemo(
    () => (
      <EmptyListState heading="No commissions found" action={emptyAction}>
        <p>Commissions appear when referred orders are recorded. Try other filters, or clear them.</p>
      </EmptyListState>
    ),
    [emptyAction]
  );
  const selectable = rows.length > 0 && pendingCount > 0;

  // Polaris' IndexTable draws the header's checkbox (unticked: the table is
  // never told of a selection, so it never renders again for one), the
  // sticky columns, the loading panel and the empty state. The selection, the
  // rows' boxes and the bar over the header are the app's.
  return (
    <div className="rb-commissions" ref={tableRef}>
      {selectable ? (
        <SelectionBar
          selection={selection}
          itemCount={rows.length}
          resourceName={RESOURCE_NAME}
          hasMore={hasMore && !bulkBusy}
          allSelectedText="Every pending commission matching these filters is selected, on every page."
          actions={pageActions}
          allActions={allActions}
        />
      ) : null}
      <IndexTable
        resourceName={RESOURCE_NAME}
        itemCount={rows.length}
        selectable={pendingCount > 0}
        selectedItemsCount={0}
        onSelectionChange={selection.togglePage}
        loading={deciding}
        lastColumnSticky
        emptyState={emptyState}
        headings={HEADINGS}
      >
        {rows.map((row, index) => (
          <CommissionTableRow
            key={row.uid}
            row={row}
            position={index}
            selection={selection}
            selectable={pendingCount > 0}
            result={results[row.uid]}
            busy={decidingUids.has(row.uid)}
            pointName={pointName}
            onDecide={onDecide}
          />
        ))}
      </IndexTable>
    </div>
  );
}

/**
 * The sticky second column sits right of the checkbox column, at Polaris'
 * `--pc-checkbox-offset`; Polaris' own rows measure it, the app's rows do
 * too: the first row's checkbox cell, at load and when the window resizes.
 */
function useCheckboxColumnOffset(tableRef: RefObject<HTMLDivElement>, selectable: boolean) {
  useEffect(() => {
    const table = tableRef.current;
    if (!table || !selectable) return;
    const measure = () => {
      const cell = table.querySelector("tbody .Polaris-IndexTable__TableCell--first");
      if (cell) table.style.setProperty("--pc-checkbox-offset", `${cell.getBoundingClientRect().width}px`);
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [tableRef, selectable]);
}
