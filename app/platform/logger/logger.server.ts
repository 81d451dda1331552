import { createHmac, randomBytes } from "node:crypto";
import { isMainThread } from "node:worker_threads";
import pino from "pino";
import { derivedKey } from "../crypto/sealing.server";
import { redactServiceUrl } from "../text/redact";

/** Keys whose values never reach a log line, wherever they sit in an object. */
const SECRET_KEYS = [
  "token",
  "serviceToken",
  "serviceTokenSealed",
  "accessToken",
  "refreshToken",
  "apiSecretKey",
  "secret",
  "password",
  "authorization",
  "apiKey",
  "api_key",
  "CREDENTIALS_KEY",
  "SHOPIFY_API_SECRET",
];

const SECRET_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

// People are never named in a log line: an email, wherever it sits in a
// string, and a customer id, under a key that names one or in a Shopify
// customer gid, become a keyed hash (HMAC-SHA256 with a key derived from
// CREDENTIALS_KEY), the same in every line and process of one deployment,
// so one person's lines can still be followed without saying who they are.

/** Anything shaped like an address, even one a service would refuse (no dot in its domain): better one hash too many. */
const EMAIL = /[^\s@"'<>(),;:[\]\\/]+@[^\s@"'<>(),;:[\]\\/]+/gu;
const CUSTOMER_GID = /(gid:\/\/shopify\/Customer\/)(\d+)/g;
/**
 * A person's key followed by a bare number inside a string: the Shopify library's lines put their context as
 * "message | {logged_in_customer_id: 7210000000441, ...}", and a query string carries "logged_in_customer_id=...".
 */
const CUSTOMER_ID_IN_TEXT = /\b(logged_in_customer_id|customer_id|customerId)(["']?\s*[:=]\s*["']?)(\d+)/g;
/** Keys whose value is a person: hashed whatever the value's type. */
const PERSON_KEYS = new Set(["email", "customerId", "customer_id", "logged_in_customer_id", "customerEmail", "buyerEmail", "referrerEmail"]);

export type Pseudonymise = (kind: "email" | "customer", value: string) => string;

/** The keyed hash a log line carries instead of a person; without a valid key (a test, a script), one random key per process. */
export function logPseudonyms(credentialsKey: string | undefined = process.env.CREDENTIALS_KEY): Pseudonymise {
  let key: Buffer;
  try {
    key = derivedKey(credentialsKey ?? "", "log");
  } catch {
    key = randomBytes(32);
  }
  return (kind, value) => `[${kind}:${createHmac("sha256", key).update(`${kind}\n${kind === "email" ? value.normalize("NFC").toLowerCase() : value}`).digest("hex").slice(0, 16)}]`;
}

function scrubText(text: string, hash: Pseudonymise): string {
  return redactServiceUrl(text)
    .replace(EMAIL, (email) => hash("email", email))
    .replace(CUSTOMER_GID, (_, prefix: string, id: string) => `${prefix}${hash("customer", id)}`)
    .replace(CUSTOMER_ID_IN_TEXT, (_, key: string, between: string, id: string) => `${key}${between}${hash("customer", id)}`);
}

/** Token segments of referral-service URLs, emails and customer ids can hide inside any string. */
function scrub(value: unknown, hash: Pseudonymise, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value, hash);
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    return { type: value.name, message: scrubText(value.message, hash), stack: value.stack && scrubText(value.stack, hash) };
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, hash, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      PERSON_KEYS.has(k) && (typeof v === "string" || typeof v === "number" || typeof v === "bigint") && String(v) !== ""
        ? hash(k.toLowerCase().includes("email") ? "email" : "customer", String(v))
        : scrub(v, hash, depth + 1),
    ]),
  );
}

export function createLogger(options: { level?: string; destination?: pino.DestinationStream; credentialsKey?: string } = {}) {
  const hash = logPseudonyms(options.credentialsKey);
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? "info",
      base: { app: "referral-bridge" },
      redact: { paths: SECRET_PATHS, censor: "[REDACTED]" },
      formatters: { log: (object) => scrub(object, hash) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((a) => (typeof a === "string" ? scrubText(a, hash) : a)) as Parameters<typeof method>,
          );
        },
      },
    },
    options.destination ?? threadDestination(),
  );
}

/**
 * pino writes asynchronously and, in the main thread only, flushes what is
 * left when the process exits. A worker thread's lines (the in-process
 * worker's "stopped with jobs under way") are written as they are logged, so
 * the thread's exit cannot drop them.
 */
function threadDestination(): pino.DestinationStream | undefined {
  return isMainThread ? undefined : pino.destination({ fd: 1, sync: true });
}

export type Logger = pino.Logger;

export const logger = createLogger();

/** Shopify's library's own lines (shopifyApp's `logger.log`), through the same pino and its redaction; its severities are Error 0, Warning 1, Info 2, Debug 3. */
const shopifyLibrary = logger.child({ component: "shopify-app" });
export function shopifyLibraryLog(severity: number, message: string): void {
  const level = (["error", "warn", "info", "debug"] as const)[severity] ?? "info";
  shopifyLibrary[level](message);
}
