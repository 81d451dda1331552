import type { IndexTableProps } from "@shopify/polaris";
import { useCallback, useRef, useState } from "react";

// The selection of an IndexTable's rows, for tables whose rows are memoised.
// Polaris' useIndexResourceState hands the table a new selection handler on
// every change (it closes over the selection and the resources), and the
// table passes it to every row through context, so every row renders again.
// This handler never changes, and the selection is a Set, so a row's
// `selected` is one lookup.

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
const SINGLE = "single" as SelectionTypeValue;

/**
 * `ids[position]` is the id of the row at that position, or null for a row
 * that can't be selected.
 */
export function useRowSelection(ids: readonly (string | null)[]) {
  const [selection, setSelection] = useState<RowSelection>(NONE);
  const idsRef = useRef(ids);
  idsRef.current = ids;

  const onSelectionChange = useCallback<OnSelectionChange>((type, selecting, selection) => {
    setSelection((prev) => {
      const selectable = idsRef.current.filter((id): id is string => id !== null);
      if (type === ALL) return selecting ? { selected: new Set(selectable), all: true } : NONE;
      if (type === PAGE) {
        // The header's checkbox stays "indeterminate" when some rows can't be
        // selected; a second click on it clears the selection.
        const everything = selectable.length > 0 && selectable.every((id) => prev.selected.has(id));
        return selecting && !everything ? { selected: new Set(selectable), all: false } : NONE;
      }
      const next = new Set(prev.selected);
      if (type === SINGLE) {
        if (typeof selection !== "string") return prev;
        if (selecting) next.add(selection);
        else next.delete(selection);
      } else {
        // Multi (shift-click) and Range: positions, both ends included.
        if (!Array.isArray(selection)) return prev;
        const [from, to] = [Math.min(...selection), Math.max(...selection)];
        for (let position = from; position <= to; position += 1) {
          const id = idsRef.current[position];
          if (!id) continue;
          if (selecting) next.add(id);
          else next.delete(id);
        }
      }
      return { selected: next, all: false };
    });
  }, []);

  const clearSelection = useCallback(() => setSelection(NONE), []);
  return { selection, onSelectionChange, clearSelection };
}
