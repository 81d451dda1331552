import { Button, InlineStack, Text } from "@shopify/polaris";
import { memo, useEffect, useLayoutEffect, useRef } from "react";

// Focus moves before paint in the browser; on the server, where there is no focus, React warns of a layout effect.
const useClientLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;
import { useSelection, type RowSelectionStore } from "./row-selection";

// The bulk-actions bar of a table whose selection is the app's (row-selection.ts):
// drawn with the classes of Polaris' IndexTable bar, over the table's header
// row, and mounted with the table. Selecting rows only shows it (a class) and
// changes its count and its box; it measures nothing. Polaris' own bar mounts
// its actions twice when select mode starts (in a measurer and in the bar),
// measures them (a forced layout of the table) and renders the whole table
// again, headings and sticky header included.

export interface BarAction {
  content: string;
  onAction(): void;
  disabled?: boolean;
}

export interface SelectionBarProps {
  selection: RowSelectionStore;
  /** The rows on the page, for the box's name ("Select all 25 commissions") and "Select all 25+". */
  itemCount: number;
  resourceName: { singular: string; plural: string };
  /** More pages match: the bar offers every matching row, on every page. */
  hasMore: boolean;
  /** What the bar says when every page is selected. */
  allSelectedText: string;
  /** The actions on the selected rows of the page. */
  actions: readonly BarAction[];
  /** The actions on every matching row, on every page. */
  allActions: readonly BarAction[];
}

export function SelectionBar({ selection, itemCount, resourceName, hasMore, allSelectedText, actions, allActions }: SelectionBarProps) {
  const { selected, all } = useSelection(selection);
  const open = all || selected.size > 0;
  const wholePage = selection.wholePage();
  const box = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);

  // `indeterminate` is a property, not an attribute.
  useEffect(() => {
    const some = open && !wholePage;
    if (box.current && box.current.indeterminate !== some) box.current.indeterminate = some;
  }, [open, wholePage]);

  // The bar covers the header's box when it opens: a keyboard user's focus
  // moves to the bar's box, and back to the header's when the bar closes.
  const wasOpen = useRef(open);
  useClientLayoutEffect(() => {
    if (wasOpen.current === open) return;
    wasOpen.current = open;
    const table = root.current?.parentElement;
    const active = document.activeElement;
    if (!table || !box.current || !(active instanceof HTMLElement)) return;
    if (open && active.closest("thead") && table.contains(active) && active.matches(":focus-visible")) box.current.focus();
    else if (!open && active === box.current) table.querySelector<HTMLInputElement>("thead input[type=checkbox]")?.focus();
  }, [open]);

  // The box shows the selection: React keeps it as `checked` says after the click.
  const onBoxClick = () => selection.togglePage();
  const boxName = `${wholePage ? "Deselect" : "Select"} all ${itemCount} ${resourceName.plural}`;

  return (
    <div className="rb-selection-bar" ref={root}>
      <div className={`Polaris-IndexTable__BulkActionsWrapper${open ? " Polaris-IndexTable__BulkActionsWrapperVisible" : ""}`}>
        <InlineStack gap="400" blockAlign="center">
          <div className="Polaris-BulkActions__BulkActionsSelectAllWrapper">
            <label className="Polaris-CheckableButton">
              <input
                ref={box}
                type="checkbox"
                className="rb-row-checkbox"
                aria-label={boxName}
                checked={open && wholePage}
                onClick={onBoxClick}
                onChange={ignoreChange}
              />
              <span className="Polaris-CheckableButton__Label">
                <Text as="span" variant="bodySm" fontWeight="medium">
                  {all && hasMore ? allSelectedText : `${selected.size} selected`}
                </Text>
              </span>
            </label>
            {hasMore ? (
              <button
                type="button"
                className="Polaris-BulkActions__AllAction"
                onClick={all ? selection.selectPage : selection.selectAll}
              >
                <Text as="span" variant="bodySm" fontWeight="medium">
                  {all ? "Undo" : `Select all ${itemCount}+ ${resourceName.plural}`}
                </Text>
              </button>
            ) : null}
          </div>
          <BarActions actions={all && hasMore ? allActions : actions} />
        </InlineStack>
      </div>
    </div>
  );
}

/** The bar's buttons: they render when the actions change, not with each change of the count. */
const BarActions = memo(function BarActions({ actions }: { actions: readonly BarAction[] }) {
  return (
    <div className="Polaris-BulkActions__BulkActionsPromotedActionsWrapper">
      <div className="Polaris-BulkActions__BulkActionsLayout">
        {actions.map((action) => (
          <div key={action.content} className="Polaris-BulkActions__BulkActionButton">
            <Button size="micro" onClick={action.onAction} disabled={action.disabled}>
              {action.content}
            </Button>
          </div>
        ))}
      </div>
    </div>
  );
});

function ignoreChange() {}
