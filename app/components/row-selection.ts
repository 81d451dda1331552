import type { IndexTableProps } from "@shopify/polaris";
import { useCallback, useRef, useState } from "react";

// The selection of a table's rows, for an IndexTable whose rows are the app's
// own (SelectableRow) and memoised. Polaris' useIndexResourceState hands the
// table a new selection handler on every change (it closes over the
// selection and the resources), so every row would render again. These
// handlers never change, and the selection is a Set, so a row's `selected`
// is one lookup. The table's header (the page, or every page) calls
// `onSelectionChange`; the rows call `toggleRow`.

type OnSelectionChange = NonNullable<IndexTableProps["onSelectionChange"]>;
type SelectionTypeValue = Parameters<OnSelectionChange>[0];

export interface RowSelection {
  selected: ReadonlySet<string>;
  /** "Select all" across pages was chosen (Polaris' SelectionType.All). */
  all: boolean;
}

const NONE: RowSelection = { selected: new Set(), all: false };

// Polaris' SelectionType values, without importing its enum at run time.
const ALL = "all" as SelectionTypeValue;
const PAGE = "page" as SelectionTypeValue;

/**
 * `ids[position]` is the id of the row at that position, or null for a row
 * that can't be selected.
 */
export function useRowSelection(ids: readonly (string | null)[]) {
  const [selection, setSelection] = useState<RowSelection>(NONE);
  const idsRef = useRef(ids);
  idsRef.current = ids;

  // The header's checkbox and its "select all" button: the page, or every page.
  const onSelectionChange = useCallback<OnSelectionChange>((type, selecting) => {
    setSelection((prev) => {
      const selectable = idsRef.current.filter((id): id is string => id !== null);
      if (type === ALL) return selecting ? { selected: new Set(selectable), all: true } : NONE;
      if (type === PAGE) {
        // The header's checkbox stays "indeterminate" when some rows can't be
        // selected; a second click on it clears the selection.
        const everything = selectable.length > 0 && selectable.every((id) => prev.selected.has(id));
        return selecting && !everything ? { selected: new Set(selectable), all: false } : NONE;
      }
      return prev;
    });
  }, []);

  // The position of the row last toggled: a shift-click (`range`) selects, or
  // clears, every row from there to the one clicked, as the clicked row goes.
  const lastToggled = useRef<number | null>(null);
  const toggleRow = useCallback((position: number, range: boolean) => {
    const from = range ? lastToggled.current : null;
    lastToggled.current = position;
    setSelection((prev) => {
      const id = idsRef.current[position];
      if (!id) return prev;
      const selecting = !prev.selected.has(id);
      const [low, high] = from === null ? [position, position] : [Math.min(from, position), Math.max(from, position)];
      const next = new Set(prev.selected);
      for (let at = low; at <= high; at += 1) {
        const each = idsRef.current[at];
        if (!each) continue;
        if (selecting) next.add(each);
        else next.delete(each);
      }
      return { selected: next, all: false };
    });
  }, []);

  const clearSelection = useCallback(() => setSelection(NONE), []);
  return { selection, onSelectionChange, toggleRow, clearSelection };
}
