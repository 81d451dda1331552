import { formatServiceDate } from "./dates";

export type ParamValue = string | number | boolean | Date | readonly (string | number)[] | null | undefined;

/** Wire parameters: names and values exactly as the service reads them. */
export type WireParams = Record<string, string>;

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function encodeValue(name: string, value: Exclude<ParamValue, null | undefined>): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`Parameter ${name} must be a finite number`);
    return String(value);
  }
  if (value instanceof Date) return formatServiceDate(value);
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

/**
 * Typed camelCase parameters to the service's form: names in snake_case (or as
 * `rename` says), flags as "1"/"0", dates as YYYY-MM-DD, lists comma-joined;
 * `undefined` and `null` are left out.
 */
export function encodeParams(params: object, rename: Record<string, string> = {}): WireParams {
  const wire: WireParams = {};
  for (const [name, value] of Object.entries(params) as [string, ParamValue][]) {
    if (value === undefined || value === null) continue;
    wire[rename[name] ?? snakeCase(name)] = encodeValue(name, value);
  }
  return wire;
}
