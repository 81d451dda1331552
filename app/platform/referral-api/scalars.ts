/**
 * Readers for the loosely typed scalars of the service's responses.
 * Each one turns the variants seen in practice into one type, or null.
 */

const TRUE_WORDS = new Set(["1", "true", "yes", "on", "y", "t"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off", "n", "f"]);

/** `1`/`0`, `"1"`/`"0"`, `true`/`false`, `"true"`/`"false"` (and yes/no/on/off) to a boolean. */
export function parseFlag(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : null;
  if (typeof value !== "string") return null;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

/** Counts, scores and IDs that arrive as string or number; `"N/A"`, `""` and garbage give null. */
export function parseNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Text fields: strings stay, numbers become their decimal text, anything else null. */
export function parseText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return null;
}

/** A comma-separated list (or an array) to trimmed, non-empty strings. */
export function parseList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(parseText).filter((v): v is string => v !== null && v !== "");
  const text = parseText(value);
  if (!text) return [];
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
