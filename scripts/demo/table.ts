/** Prints rows as an aligned plain-text table. */
export function printTable(headers: string[], rows: (string | null | undefined)[][]): void {
  const cells = [headers, ...rows.map((row) => row.map((cell) => cell ?? "-"))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => String(row[i] ?? "").length)));
  const line = (row: (string | null | undefined)[]) => row.map((cell, i) => String(cell ?? "").padEnd(widths[i]!)).join("  ");
  console.log(`  ${line(headers)}`);
  console.log(`  ${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of cells.slice(1)) console.log(`  ${line(row)}`);
}
