import { parseServiceDate, parseUnixSeconds } from "./dates";
import { tryParseMoney, type Money } from "./money";
import { isRecord, parseFlag, parseList, parseNumber, parseText } from "./scalars";

/** Thrown by normalisers when a response lacks what makes it usable; the transport turns it into a "server" error. */
export class MalformedResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedResponseError";
  }
}

/**
 * Reads the fields of one raw object and remembers which keys were read, so the
 * normalised value can keep every other key under `extra`.
 */
export interface FieldReader {
  text(key: string, ...aliases: string[]): string | null;
  requiredText(key: string): string;
  flag(key: string): boolean | null;
  number(key: string): number | null;
  money(key: string): Money | null;
  date(key: string): Date | null;
  unixDate(key: string): Date | null;
  list(key: string): string[];
  object(key: string): Record<string, unknown> | null;
  array(key: string): unknown[];
  raw(key: string): unknown;
  extra(): Record<string, unknown>;
}

export function readFields(value: unknown, what: string): FieldReader {
  if (!isRecord(value)) throw new MalformedResponseError(`Expected ${what} to be an object`);
  const source = value;
  const used = new Set<string>();
  const take = (key: string): unknown => {
    used.add(key);
    return source[key];
  };

  return {
    text(key, ...aliases) {
      for (const name of [key, ...aliases]) {
        const found = parseText(take(name));
        if (found !== null) return found;
      }
      return null;
    },
    requiredText(key) {
      const found = parseText(take(key));
      if (found === null || found === "") throw new MalformedResponseError(`${what} has no ${key}`);
      return found;
    },
    flag: (key) => parseFlag(take(key)),
    number: (key) => parseNumber(take(key)),
    money: (key) => tryParseMoney(take(key)),
    date: (key) => parseServiceDate(take(key)),
    unixDate: (key) => parseUnixSeconds(take(key)),
    list: (key) => parseList(take(key)),
    object(key) {
      const found = take(key);
      return isRecord(found) ? found : null;
    },
    array(key) {
      const found = take(key);
      return Array.isArray(found) ? found : [];
    },
    raw: (key) => take(key),
    extra() {
      const rest: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(source)) if (!used.has(key)) rest[key] = v;
      return rest;
    },
  };
}
