import { createHmac, timingSafeEqual } from "node:crypto";

// The check authenticate.webhook makes (through @shopify/shopify-api's
// webhooks.validate), done on the raw bytes without a Fetch Request, so the
// order webhooks can be verified on the app's fast ingress path. The same
// answers for the same requests: test/app/verify-webhook.test.ts compares
// the two side by side.

export interface VerifiedWebhook {
  shop: string;
  /** As authenticate.webhook gives it: "orders/paid" → "ORDERS_PAID". */
  topic: string;
  webhookId: string;
  apiVersion: string;
  triggeredAt: Date | null;
}

export type Verification =
  | { ok: true; webhook: VerifiedWebhook }
  | { ok: false; status: 400 | 401 | 405; reason: string };

export type HeaderReader = (name: string) => string | null | undefined;

const HMAC_HEADER = "X-Shopify-Hmac-Sha256";
const REQUIRED_HEADERS = ["X-Shopify-Topic", "X-Shopify-Shop-Domain", "X-Shopify-Api-Version", "X-Shopify-Webhook-Id"] as const;

export function topicKey(topic: string): string {
  return topic.toUpperCase().replace(/[/.]/g, "_");
}

/** Whether `given` (base64) is the HMAC-SHA256 of the raw body with the app's secret, compared in constant time. */
export function signatureMatches(rawBody: Buffer, given: string, secret: string): boolean {
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const decoded = Buffer.from(given, "base64");
  return decoded.length === expected.length && timingSafeEqual(decoded, expected);
}

/**
 * How old a delivery's X-Shopify-Triggered-At may be. Shopify retries a
 * failed delivery 8 times over 4 hours; a day leaves room for deliveries
 * held back during an incident at either end, and refuses a capture replayed
 * later. The header is not signed, so this stops a replay as captured, not
 * one whose header was rewritten: the signed payload and the de-duplication
 * keys do the rest.
 */
export const TRIGGERED_AT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Clocks differ a little; a delivery triggered further in the future than this is refused. */
export const TRIGGERED_AT_MAX_AHEAD_MS = 15 * 60 * 1000;

type Refusal = { ok: false; status: 400 | 401; reason: string };

/**
 * What the headers alone say, checked before a byte of the body is read
 * (the signature does not cover them): one HMAC header (repeated headers
 * arrive joined by commas, which base64 never contains), then the rest of
 * the delivery's headers (checkDeliveryHeaders). The order webhooks' fast
 * path refuses on these before reading up to 2 MiB of body, as
 * authenticate.webhook would after reading it: 400 for a header missing.
 */
export function checkUnsignedHeaders(header: HeaderReader, expectedTopic: string, now: Date = new Date()): Refusal | null {
  const hmac = header(HMAC_HEADER);
  if (!hmac) return { ok: false, status: 400, reason: `missing ${HMAC_HEADER}` };
  if (hmac.includes(",")) return { ok: false, status: 400, reason: `repeated ${HMAC_HEADER}` };
  return checkDeliveryHeaders(header, expectedTopic, now);
}

/**
 * Every header Shopify sends, the topic the address is for, and a trigger
 * time within Shopify's retry window (a delivery without the header is
 * taken; Shopify always sends it). All 400.
 */
export function checkDeliveryHeaders(header: HeaderReader, expectedTopic: string, now: Date = new Date()): Refusal | null {
  const missing = REQUIRED_HEADERS.filter((name) => !header(name));
  if (missing.length > 0) return { ok: false, status: 400, reason: `missing ${missing.join(", ")}` };
  const topic = header("X-Shopify-Topic");
  if (topic !== expectedTopic) return { ok: false, status: 400, reason: `topic ${topic} delivered to the address of ${expectedTopic}` };
  const triggeredAt = header("X-Shopify-Triggered-At");
  if (triggeredAt) {
    const time = Date.parse(triggeredAt);
    if (Number.isNaN(time)) return { ok: false, status: 400, reason: "X-Shopify-Triggered-At is not a date" };
    if (now.getTime() - time > TRIGGERED_AT_MAX_AGE_MS) return { ok: false, status: 400, reason: "the delivery was triggered more than a day ago" };
    if (time - now.getTime() > TRIGGERED_AT_MAX_AHEAD_MS) return { ok: false, status: 400, reason: "the delivery was triggered in the future" };
  }
  return null;
}

/** A delivery without exactly one HMAC header is unsigned: 401, like a wrong signature, and decided before the body is read. */
export function checkSignaturePresent(header: HeaderReader): Refusal | null {
  const hmac = header(HMAC_HEADER);
  if (!hmac) return { ok: false, status: 401, reason: `missing ${HMAC_HEADER}` };
  if (hmac.includes(",")) return { ok: false, status: 401, reason: `repeated ${HMAC_HEADER}` };
  return null;
}

/**
 * The signature before anything else, as Shopify asks of the compliance
 * topics: an unsigned or badly signed delivery is 401 whatever its other
 * headers say (a stale trigger time, another topic); only a signed one is
 * then held to checkDeliveryHeaders (400).
 */
export function checkSignedFirst(rawBody: Buffer, header: HeaderReader, expectedTopic: string, secret: string, now: Date = new Date()): Refusal | null {
  const unsigned = checkSignaturePresent(header);
  if (unsigned) return unsigned;
  if (!signatureMatches(rawBody, header(HMAC_HEADER)!, secret)) return { ok: false, status: 401, reason: "the HMAC signature does not match" };
  return checkDeliveryHeaders(header, expectedTopic, now);
}

export function verifyShopifyWebhook(
  request: { method: string; rawBody: Buffer; header: HeaderReader; expectedTopic: string },
  secret: string,
  now: Date = new Date(),
): Verification {
  if (request.method !== "POST") return { ok: false, status: 405, reason: "webhooks are POST requests" };
  const unsigned = checkUnsignedHeaders(request.header, request.expectedTopic, now);
  if (unsigned) return unsigned;
  if (!signatureMatches(request.rawBody, request.header(HMAC_HEADER)!, secret)) return { ok: false, status: 401, reason: "the HMAC signature does not match" };
  const triggeredAt = request.header("X-Shopify-Triggered-At");
  const triggeredTime = triggeredAt ? Date.parse(triggeredAt) : NaN;
  return {
    ok: true,
    webhook: {
      shop: request.header("X-Shopify-Shop-Domain")!,
      topic: topicKey(request.header("X-Shopify-Topic")!),
      webhookId: request.header("X-Shopify-Webhook-Id")!,
      apiVersion: request.header("X-Shopify-Api-Version")!,
      triggeredAt: Number.isNaN(triggeredTime) ? null : new Date(triggeredTime),
    },
  };
}
