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

function signatureMatches(rawBody: Buffer, given: string, secret: string): boolean {
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const decoded = Buffer.from(given, "base64");
  return decoded.length === expected.length && timingSafeEqual(decoded, expected);
}

export function verifyShopifyWebhook(request: { method: string; rawBody: Buffer; header: HeaderReader }, secret: string): Verification {
  if (request.method !== "POST") return { ok: false, status: 405, reason: "webhooks are POST requests" };
  const hmac = request.header(HMAC_HEADER);
  if (!hmac) return { ok: false, status: 400, reason: `missing ${HMAC_HEADER}` };
  if (!signatureMatches(request.rawBody, hmac, secret)) return { ok: false, status: 401, reason: "the HMAC signature does not match" };
  const missing = REQUIRED_HEADERS.filter((name) => !request.header(name));
  if (missing.length > 0) return { ok: false, status: 400, reason: `missing ${missing.join(", ")}` };
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
