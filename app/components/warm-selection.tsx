import { IndexTable, type IndexTableProps } from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import { createPortal } from "react-dom";

// The first selection of a load cost far more than later ones: its code
// (Polaris' bulk actions, the rows' selected state, the checkboxes' updates)
// runs for the first time then, and the engine compiles it on that first
// call. Once the page is idle, this renders a one-row table like the page's
// into an element that is not in the document, unselected and then selected,
// and removes it: the code is compiled before the merchant's click, and
// nothing is drawn (a detached element has no style, layout or paint).

type Step = "waiting" | "unselected" | "selected" | "done";
const NEXT: Record<Step, Step> = { waiting: "unselected", unselected: "selected", selected: "done", done: "done" };

const idle = (callback: () => void): (() => void) => {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(callback, { timeout: 2_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(callback, 50);
  return () => window.clearTimeout(handle);
};

const noop = () => {};

export function WarmSelection({
  headings,
  resourceName,
  promotedBulkActions,
}: Pick<IndexTableProps, "headings" | "resourceName" | "promotedBulkActions">) {
  const [step, setStep] = useState<Step>("waiting");
  const container = useMemo(() => (typeof document === "undefined" ? null : document.createElement("div")), []);
  useEffect(() => (step === "done" ? undefined : idle(() => setStep(NEXT[step]))), [step]);
  if (!container || step === "waiting" || step === "done") return null;
  const selected = step === "selected";
  return createPortal(
    <IndexTable
      resourceName={resourceName}
      itemCount={1}
      selectable
      selectedItemsCount={selected ? 1 : 0}
      onSelectionChange={noop}
      promotedBulkActions={promotedBulkActions}
      lastColumnSticky
      headings={headings}
    >
      {/* Position 1, not 0: the first row's checkbox measures itself into a property of the whole document. */}
      <IndexTable.Row id="warm-selection" position={1} selected={selected}>
        {headings.map((heading, index) => (
          <IndexTable.Cell key={index}>{heading.title}</IndexTable.Cell>
        ))}
      </IndexTable.Row>
    </IndexTable>,
    container
  );
}
// Kept in the minified build: the browser test follows the warm-up's steps by this name.
WarmSelection.displayName = "WarmSelection";
