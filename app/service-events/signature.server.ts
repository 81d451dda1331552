import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "X-SERVICE-HMAC-SHA256";

/** Which bytes the signature was computed over. */
export type SignedForm = "raw" | "sorted";

export type SignatureCheck = { ok: true; form: SignedForm } | { ok: false };

export function signServiceBody(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

function digest(secret: string, body: string): Buffer {
  return createHmac("sha256", secret).update(body, "utf8").digest();
}

function sameDigest(expected: Buffer, given: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// A number keeps the text it was written with ("5.0" stays "5.0"), so the
// re-serialised form matches a signer that never turned it into a double.
class NumberText {
  constructor(readonly text: string) {}
}

type Parsed = null | boolean | string | NumberText | Parsed[] | { [key: string]: Parsed };

function parseKeepingNumbers(text: string): Parsed {
  return JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === "number") return new NumberText(context?.source ?? String(value));
    return value;
  } as (key: string, value: unknown) => unknown) as Parsed;
}

interface Style {
  itemSeparator: string;
  keySeparator: string;
  asciiOnly: boolean;
}

function quote(text: string, asciiOnly: boolean): string {
  const quoted = JSON.stringify(text);
  if (!asciiOnly) return quoted;
  return quoted.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function serialise(value: Parsed, style: Style): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "string") return quote(value, style.asciiOnly);
  if (value instanceof NumberText) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => serialise(item, style)).join(style.itemSeparator)}]`;
  const keys = Object.keys(value).sort();
  const members = keys.map((key) => `${quote(key, style.asciiOnly)}${style.keySeparator}${serialise(value[key], style)}`);
  return `{${members.join(style.itemSeparator)}}`;
}

/**
 * The sorted-keys forms a signer may have hashed: compact (JavaScript-like)
 * and the spaced, ASCII-escaped form of Python's json.dumps(sort_keys=True),
 * each with and without ASCII escaping.
 */
const SORTED_STYLES: Style[] = [
  { itemSeparator: ",", keySeparator: ":", asciiOnly: false },
  { itemSeparator: ",", keySeparator: ":", asciiOnly: true },
  { itemSeparator: ", ", keySeparator: ": ", asciiOnly: true },
  { itemSeparator: ", ", keySeparator: ": ", asciiOnly: false },
];

/** The body re-serialised with its keys sorted at every depth, in the given style (default compact). */
export function sortedJson(rawBody: string, style: Style = SORTED_STYLES[0]): string {
  return serialise(parseKeepingNumbers(rawBody), style);
}

/**
 * Checks X-SERVICE-HMAC-SHA256: base64 HMAC-SHA256 of the raw body with the
 * shop's secret, or (the interface leaves the byte form open) of the JSON
 * re-serialised with sorted keys. Every comparison is constant-time.
 */
export function verifyServiceSignature(rawBody: string, signature: string | null | undefined, secret: string): SignatureCheck {
  const given = (signature ?? "").trim();
  if (given === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(given)) return { ok: false };
  const givenBytes = Buffer.from(given, "base64");
  if (sameDigest(digest(secret, rawBody), givenBytes)) return { ok: true, form: "raw" };

  let parsed: Parsed;
  try {
    parsed = parseKeepingNumbers(rawBody);
  } catch {
    return { ok: false };
  }
  const forms = new Set(SORTED_STYLES.map((style) => serialise(parsed, style)));
  let matched = false;
  // Every form is compared, matched or not, so the time taken says nothing about which one did.
  for (const form of forms) if (sameDigest(digest(secret, form), givenBytes)) matched = true;
  return matched ? { ok: true, form: "sorted" } : { ok: false };
}
