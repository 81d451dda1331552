/**
 * Exact decimal amounts (money and points) without floating point drift.
 *
 * A `Money` value is a canonical decimal string: optional "-", an integer part
 * without leading zeros, a "." and at least two fraction digits (more only when
 * the amount really has them): "12.50", "0.30", "-3.00", "1.125".
 * Arithmetic runs on BigInt, never on floats.
 */

declare const moneyBrand: unique symbol;
export type Money = string & { readonly [moneyBrand]: true };

interface Scaled {
  units: bigint;
  scale: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

function toScaled(text: string): Scaled | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, sign, intPart = "", fracPart = "", exponent] = match;
  if (intPart === "" && fracPart === "") return null;
  let digits = intPart + fracPart;
  let scale = fracPart.length - (exponent ? Number(exponent) : 0);
  if (Math.abs(scale) > 1000) return null;
  if (scale < 0) {
    digits += "0".repeat(-scale);
    scale = 0;
  }
  const units = BigInt(digits || "0");
  return { units: sign === "-" ? -units : units, scale };
}

function fromScaled({ units, scale }: Scaled): Money {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  let intPart = digits.slice(0, digits.length - scale);
  let fracPart = digits.slice(digits.length - scale);
  fracPart = fracPart.replace(/0+$/, "").padEnd(2, "0");
  intPart = intPart.replace(/^0+(?=\d)/, "");
  digits = `${intPart}.${fracPart}`;
  const isZero = /^0\.0+$/.test(digits);
  return ((negative && !isZero ? "-" : "") + digits) as Money;
}

function align(a: Scaled, b: Scaled): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale];
}

function scaledOf(value: Money | string | number): Scaled {
  const scaled = typeof value === "number" ? numberToScaled(value) : toScaled(value);
  if (!scaled) throw new RangeError(`Not a decimal amount: ${JSON.stringify(value)}`);
  return scaled;
}

function numberToScaled(value: number): Scaled | null {
  // String(n) is the shortest text that reads back as the same double, so
  // 19.99 gives "19.99" and not 19.989999999999998436805981327779591083526611328125.
  return Number.isFinite(value) ? toScaled(String(value)) : null;
}

/** Reads a decimal from a string or number; `null` when it is not a decimal. */
export function tryParseMoney(value: unknown): Money | null {
  if (typeof value === "number") {
    const scaled = numberToScaled(value);
    return scaled ? fromScaled(scaled) : null;
  }
  if (typeof value !== "string") return null;
  const scaled = toScaled(value);
  return scaled ? fromScaled(scaled) : null;
}

/** Reads a decimal from a string or number; throws a RangeError when it is not one. */
export function parseMoney(value: string | number): Money {
  return fromScaled(scaledOf(value));
}

export function addMoney(a: Money | string | number, b: Money | string | number): Money {
  const [x, y, scale] = align(scaledOf(a), scaledOf(b));
  return fromScaled({ units: x + y, scale });
}

export function subtractMoney(a: Money | string | number, b: Money | string | number): Money {
  const [x, y, scale] = align(scaledOf(a), scaledOf(b));
  return fromScaled({ units: x - y, scale });
}

/** -1, 0 or 1, like a sort comparator. */
export function compareMoney(a: Money | string | number, b: Money | string | number): -1 | 0 | 1 {
  const [x, y] = align(scaledOf(a), scaledOf(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Integer cents; amounts with more than two decimals are rounded half away from zero. */
export function moneyToCents(value: Money | string | number): bigint {
  const { units, scale } = scaledOf(value);
  if (scale <= 2) return units * 10n ** BigInt(2 - scale);
  const divisor = 10n ** BigInt(scale - 2);
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  let cents = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) cents += 1n;
  return negative ? -cents : cents;
}

export function moneyFromCents(cents: bigint | number): Money {
  if (typeof cents === "number" && !Number.isSafeInteger(cents)) {
    throw new RangeError(`Cents must be a safe integer: ${cents}`);
  }
  return fromScaled({ units: BigInt(cents), scale: 2 });
}

/**
 * How many decimals a currency's amounts have (ISO 4217's minor unit, as the
 * runtime's ICU data knows it): 0 for JPY and KRW, 3 for KWD, BHD and OMR, 2
 * for most. The one place the app learns it.
 */
export function minorUnitsOf(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    throw new RangeError(`Not a currency code: ${JSON.stringify(currency)}`);
  }
}

/**
 * An amount as Shopify takes it in `currency`: rounded half away from zero to
 * the currency's minor unit, with exactly that many decimals ("1501" yen,
 * "5.126" dinars, "7.13" dollars).
 */
export function toMinorUnit(value: Money | string | number, currency: string): string {
  const digits = minorUnitsOf(currency);
  const { units, scale } = scaledOf(value);
  const negative = units < 0n;
  let magnitude = negative ? -units : units;
  if (scale > digits) {
    const divisor = 10n ** BigInt(scale - digits);
    const rounded = magnitude / divisor + ((magnitude % divisor) * 2n >= divisor ? 1n : 0n);
    magnitude = rounded;
  } else {
    magnitude *= 10n ** BigInt(digits - scale);
  }
  const text = magnitude.toString().padStart(digits + 1, "0");
  const whole = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative && magnitude !== 0n ? `-${whole}` : whole;
}
