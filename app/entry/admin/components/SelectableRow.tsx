import type { MouseEvent, ReactNode } from "react";

// A row of a Polaris IndexTable, drawn by the app: a `<tr>` with the classes
// of Polaris' rows (so its look, selected colour and sticky first column
// are Polaris' own) and a plain, labelled checkbox.
//
// Polaris' IndexTable.Row reads the table's select mode from context, so when
// the first row is selected every row and its checkbox (a Choice, a label,
// the input, a backdrop and an icon) render again, and the table restyles
// them all. This row reads no context: a change of selection renders the
// rows whose `selected` changed, and of each only this `<tr>` and its input.
// The hover colour is CSS's `:hover` (admin.css), not a render.

const ROW = "Polaris-IndexTable__TableRow";
/** The app's rows, for admin.css. */
const OWN = "rb-row";
const CHECKBOX_CELL = "Polaris-IndexTable__TableCell Polaris-IndexTable__TableCell--first";

export interface SelectableRowProps {
  id: string;
  position: number;
  selected: boolean;
  /** A row that can't be selected: its checkbox is disabled and a click does nothing. */
  disabled: boolean;
  /** The table has a checkbox column (IndexTable's `selectable`); without it the row has no checkbox cell. */
  selectable: boolean;
  /** The checkbox's accessible name: which row it selects. */
  label: string;
  /** Toggles the row at `position`; `range` (shift held) takes every row from the last one toggled. */
  onToggle(position: number, range: boolean): void;
  /** The row's cells (IndexTable.Cell). */
  children: ReactNode;
}

export function SelectableRow({ id, position, selected, disabled, selectable, label, onToggle, children }: SelectableRowProps) {
  const className = `${OWN} ${ROW}${selected ? ` ${ROW}--selected` : ""}${disabled ? ` ${ROW}--disabled` : ""}${
    selectable ? "" : ` ${ROW}--unclickable`
  }`;

  // A click anywhere on the row toggles it, as on Polaris' rows, except on
  // the row's own links and buttons.
  const onRowClick = (event: MouseEvent<HTMLTableRowElement>) => {
    if (disabled || !selectable || (event.target as Element).closest("a, button, input")) return;
    onToggle(position, event.shiftKey);
  };
  // The checkbox's click (a pointer, or Space on the focused box) toggles it, with shift a range.
  const onCheckboxClick = (event: MouseEvent<HTMLInputElement>) => {
    event.stopPropagation();
    if (!disabled) onToggle(position, event.shiftKey);
  };

  return (
    <tr id={id} className={className} onClick={onRowClick} onMouseDown={keepTextUnselectedOnShift}>
      {selectable ? (
        <td className={CHECKBOX_CELL}>
          <div className="Polaris-IndexTable-Checkbox__Wrapper">
            <input
              type="checkbox"
              className="rb-row-checkbox"
              aria-label={label}
              checked={selected}
              disabled={disabled}
              onClick={onCheckboxClick}
              // The state is the selection's: React keeps the box as `checked` says.
              onChange={ignoreChange}
            />
          </div>
        </td>
      ) : null}
      {children}
    </tr>
  );
}

// Shift-click would also extend the page's text selection over the rows between.
function keepTextUnselectedOnShift(event: MouseEvent) {
  if (event.shiftKey) event.preventDefault();
}

function ignoreChange() {}
