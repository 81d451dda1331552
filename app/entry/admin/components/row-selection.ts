import { useState, useSyncExternalStore } from "react";

// The selection of a table's rows, kept outside React's state: a change of
// selection renders the rows whose own box changed and the selection bar,
// never the table that holds them (Polaris' IndexTable, its headings and its
// sticky header). Each row reads whether it is selected, the bar reads the
// whole selection; both through useSyncExternalStore.
//
// A change to the whole page (its box, "select all") shows in the bar at
// once, and in the rows in the frame after: the merchant sees the click
// answered (the bar and its count) without waiting for every row to restyle
// and repaint. A click on one row shows in that row at once.

export interface RowSelection {
  selected: ReadonlySet<string>;
  /** "Select all" across pages was chosen: every matching row, on every page. */
  all: boolean;
}

const NONE: RowSelection = { selected: new Set(), all: false };

export interface RowSelectionStore {
  current(): RowSelection;
  subscribe(listener: () => void): () => void;
  /** The selection as the rows show it: the same, or, just after a change to the whole page, the one before until the next frame. */
  shown(): RowSelection;
  subscribeRows(listener: () => void): () => void;
  /** The page's rows: `ids[position]` is the row's id, or null for a row that can't be selected. */
  setIds(ids: readonly (string | null)[]): void;
  /** Every selectable row of the page is selected (or every page is). */
  wholePage(): boolean;
  /** The page's checkbox: selects every selectable row of the page, or clears them when they all are. */
  togglePage(): void;
  /** "Select all N+": every matching row, on every page. */
  selectAll(): void;
  /** From "every page" back to this page's rows. */
  selectPage(): void;
  /** Toggles the row at `position`; `range` (shift held) takes every row from the one last toggled, as the clicked row goes. */
  toggleRow(position: number, range: boolean): void;
  clear(): void;
}

export function createRowSelection(): RowSelectionStore {
  let state = NONE;
  let shown = NONE;
  let ids: readonly (string | null)[] = [];
  let lastToggled: number | null = null;
  let rowsLater: number | null = null;
  const listeners = new Set<() => void>();
  const rowListeners = new Set<() => void>();
  const showInRows = () => {
    rowsLater = null;
    if (shown === state) return;
    shown = state;
    for (const listener of rowListeners) listener();
  };
  const set = (next: RowSelection, rows: "now" | "after the next paint") => {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
    if (rows === "now" || typeof window === "undefined") showInRows();
    // requestAnimationFrame runs before the next paint, the timeout after it.
    else rowsLater ??= requestAnimationFrame(() => setTimeout(showInRows, 0));
  };
  const selectable = () => ids.filter((id): id is string => id !== null);
  const wholePage = () => {
    const page = selectable();
    return state.all || (page.length > 0 && page.every((id) => state.selected.has(id)));
  };

  return {
    current: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    shown: () => shown,
    subscribeRows(listener) {
      rowListeners.add(listener);
      return () => rowListeners.delete(listener);
    },
    setIds(next) {
      ids = next;
    },
    wholePage,
    togglePage() {
      set(wholePage() ? NONE : { selected: new Set(selectable()), all: false }, "after the next paint");
    },
    selectAll() {
      set({ selected: new Set(selectable()), all: true }, "after the next paint");
    },
    selectPage() {
      set({ selected: new Set(selectable()), all: false }, "after the next paint");
    },
    toggleRow(position, range) {
      const from = range ? lastToggled : null;
      lastToggled = position;
      const id = ids[position];
      if (!id) return;
      const selecting = !state.selected.has(id);
      const [low, high] = from === null ? [position, position] : [Math.min(from, position), Math.max(from, position)];
      const next = new Set(state.selected);
      for (let at = low; at <= high; at += 1) {
        const each = ids[at];
        if (!each) continue;
        if (selecting) next.add(each);
        else next.delete(each);
      }
      set({ selected: next, all: false }, "now");
    },
    clear() {
      set(NONE, "after the next paint");
    },
  };
}

/** A selection for the component's lifetime, told the page's rows on every render. */
export function useRowSelectionStore(ids: readonly (string | null)[]): RowSelectionStore {
  const [store] = useState(createRowSelection);
  store.setIds(ids);
  return store;
}

const nothing = () => NONE;

/** The whole selection: renders the caller whenever it changes. */
export function useSelection(store: RowSelectionStore): RowSelection {
  return useSyncExternalStore(store.subscribe, store.current, nothing);
}

/** Whether one row shows as selected: renders the caller only when that changes. */
export function useRowSelected(store: RowSelectionStore, id: string): boolean {
  return useSyncExternalStore(
    store.subscribeRows,
    () => store.shown().selected.has(id),
    () => false
  );
}
