/**
 * Date parsing for the forms the service uses:
 *  - `2024-03-01T10:20:30+0000`, optionally with fractional seconds or `Z`/`+00:00`
 *  - `2024-03-01 10:20:30.123` (no offset: taken as UTC)
 *  - `2024-03-01` (UTC midnight)
 *  - Unix time in seconds, as string or number (campaign start/end dates)
 * Anything empty, zero-like or unreadable becomes `null`.
 */

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const UNIX = /^-?\d+(?:\.\d+)?$/;

function utc(year: string, month: string, day: string, h = "0", m = "0", s = "0", ms = 0): Date | null {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(h), Number(m), Number(s), ms));
  const valid =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    Number(h) < 24 &&
    Number(m) < 60 &&
    Number(s) < 61;
  return valid ? date : null;
}

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === "Z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || "0");
  return zone.startsWith("-") ? -minutes : minutes;
}

/** Unix seconds (string or number) to a Date; other date forms are accepted too. */
export function parseUnixSeconds(value: unknown): Date | null {
  if (typeof value === "number") {
    return Number.isFinite(value) && value > 0 ? new Date(value * 1000) : null;
  }
  if (typeof value === "string" && UNIX.test(value.trim())) {
    return parseUnixSeconds(Number(value.trim()));
  }
  return parseServiceDate(value);
}

/** Any of the service's date forms to a Date, or null. */
export function parseServiceDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === "number") return parseUnixSeconds(value);
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "" || /^0{4}-0{2}-0{2}/.test(text)) return null;

  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) return utc(dateOnly[1], dateOnly[2], dateOnly[3]);

  const dateTime = DATE_TIME.exec(text);
  if (dateTime) {
    const [, y, mo, d, h, mi, s = "0", fraction = "", zone] = dateTime;
    const ms = Number(fraction.slice(0, 3).padEnd(3, "0"));
    const local = utc(y, mo, d, h, mi, s, ms);
    return local ? new Date(local.getTime() - offsetMinutes(zone) * 60_000) : null;
  }

  if (UNIX.test(text)) {
    // Long digit runs are milliseconds; shorter ones seconds.
    const n = Number(text);
    return text.replace(/^-/, "").split(".")[0].length >= 13 ? new Date(n) : parseUnixSeconds(n);
  }

  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : new Date(parsed);
}

/** A Date (or date string) as `YYYY-MM-DD` in UTC, the form the service's date parameters take. */
export function formatServiceDate(value: Date | string): string {
  if (typeof value === "string") return value;
  return value.toISOString().slice(0, 10);
}
