import { badRequest, notNumbersMessage, requiredMessage, type ParamWording } from "./envelope";
import { isDecimal, isInteger } from "./money";
import { parseFilterDate, type ParsedDate } from "./dates";

/**
 * Request parameters of one v2 call, merged from the query string and the body
 * (body wins). Blank values count as absent, like an unset form field.
 */
export class Params {
  constructor(
    private readonly values: ReadonlyMap<string, string>,
    /** How this operation's error texts name its parameters. */
    readonly wording: ParamWording,
  ) {}

  get(name: string): string | undefined {
    const value = this.values.get(name)?.trim();
    return value ? value : undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** `1` -> true, `0` -> false, absent -> undefined; `true`/`false` are tolerated. */
  flag(name: string): boolean | undefined {
    const value = this.get(name)?.toLowerCase();
    if (value === undefined) return undefined;
    if (value === "1" || value === "true") return true;
    if (value === "0" || value === "false") return false;
    throw badRequest(`The following ${this.wording} parameter must be 1 or 0: ${name}.`);
  }

  /** Each entry is a parameter name or a list of alternatives ("uid or email"). */
  require(...entries: (string | string[])[]): void {
    const missing = entries
      .filter((entry) => (Array.isArray(entry) ? entry : [entry]).every((name) => !this.has(name)))
      .map((entry) => (Array.isArray(entry) ? entry.join(" or ") : entry));
    if (missing.length > 0) throw badRequest(requiredMessage(missing, this.wording));
  }

  /** Rejects present parameters that are not numbers, all of them named in one error. */
  /** The document's not-numbers text says "GET/POST" except for ambassador/all ("POST"). */
  numbers(spec: { integers?: string[]; decimals?: string[] }, wording: ParamWording = "GET/POST"): void {
    const bad = [
      ...(spec.integers ?? []).filter((name) => this.has(name) && !isInteger(this.get(name)!)),
      ...(spec.decimals ?? []).filter((name) => this.has(name) && !isDecimal(this.get(name)!)),
    ];
    if (bad.length > 0) throw badRequest(notNumbersMessage(bad, wording));
  }

  int(name: string): number | undefined {
    const value = this.get(name);
    return value === undefined ? undefined : Number.parseInt(value, 10);
  }

  date(name: string): ParsedDate | undefined {
    const value = this.get(name);
    if (value === undefined) return undefined;
    const parsed = parseFilterDate(value);
    if (!parsed) {
      throw badRequest(`The following ${this.wording} parameter is not a valid date (YYYY-MM-DD or ISO 8601): ${name}.`);
    }
    return parsed;
  }

  /** Comma-separated list, blanks dropped. */
  list(name: string): string[] | undefined {
    const value = this.get(name);
    if (value === undefined) return undefined;
    return value
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  }

  entries(): [string, string][] {
    return [...this.values.entries()];
  }
}
