// Exact decimal arithmetic for amounts. Money is kept in integer cents, points in
// whole points, percentages in ten-thousandths of a percent: no floats anywhere.

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function isDecimal(text: string): boolean {
  return DECIMAL.test(text);
}

export function isInteger(text: string): boolean {
  return /^[+-]?\d+$/.test(text) && Math.abs(Number(text)) <= 2_147_483_647;
}

/** Divides and rounds half away from zero (half-up for the positive amounts used here). */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (2n * d);
  return negative ? -q : q;
}

/** Parses a decimal string into an integer scaled by 10^scale, rounding half-up. */
export function parseScaled(text: string, scale: number): bigint {
  if (!isDecimal(text)) throw new Error(`not a decimal: ${text}`);
  const negative = text.startsWith("-");
  const unsigned = text.replace(/^[+-]/, "");
  const [whole = "", fraction = ""] = unsigned.split(".");
  const digits = BigInt((whole || "0") + fraction || "0");
  const value = divRoundHalfUp(digits * 10n ** BigInt(scale), 10n ** BigInt(fraction.length));
  return negative ? -value : value;
}

export function parseCents(text: string): number {
  return Number(parseScaled(text, 2));
}

/** Percentages keep four decimals: "2.5" -> 25000. */
export function parsePercent(text: string): bigint {
  return parseScaled(text, 4);
}

/** revenue (cents) x percent -> cents, half-up. */
export function percentOfCents(revenueCents: number, percent: bigint): number {
  return Number(divRoundHalfUp(BigInt(revenueCents) * percent, 100n * 10_000n));
}

/** revenue (cents) x percent -> whole points, half-up. */
export function percentOfCentsAsPoints(revenueCents: number, percent: bigint): number {
  return Number(divRoundHalfUp(BigInt(revenueCents) * percent, 100n * 100n * 10_000n));
}

/** 1234 -> "12.34"; -5 -> "-0.05". */
export function formatCents(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** 1234 -> 12.34 as a JSON number (for the fields the document shows as numbers). */
export function centsToNumber(cents: number): number {
  return Number(formatCents(cents));
}
