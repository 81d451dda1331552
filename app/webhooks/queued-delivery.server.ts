import type { Logger } from "pino";
import { parseShopifyJson } from "../referrals/lossless-json";
import { RawJson, type IntakeResult, type OrderWebhook } from "../referrals/order-intake";
import { ORDER_WEBHOOK_TOPICS } from "./order-webhooks.server";
import { topicKey } from "./verify-webhook";

// The order webhooks as a queue delivers them (Google Cloud Pub/Sub or
// Amazon EventBridge, docs/decisions/008-beyond-one-database.md): one more
// entry point beside the HTTP path, into the same intake with the same
// idempotency keys. There is no HMAC to check: only the app's own
// subscription can put a message on its queue, so the cloud's access control
// stands where the signature stands on the HTTP path.

/** A delivery taken off a queue: Shopify's X-Shopify-* headers and the order's JSON. */
export interface QueuedDelivery {
  headers: Record<string, string | undefined>;
  body: RawJson | { parsed: unknown };
}

/** What the consumer tells the queue: done with the message, or deliver it again later. */
export interface Settlement {
  settle: "ack" | "retry";
  outcome: IntakeResult["outcome"] | "refused";
  detail?: string;
}

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
const ORDER_TOPICS = new Set<string>(ORDER_WEBHOOK_TOPICS);

function header(headers: QueuedDelivery["headers"], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** The order webhook a delivery carries, or why it is not one the app takes. */
export function orderWebhookOf(delivery: QueuedDelivery): OrderWebhook | { refused: string } {
  const topic = header(delivery.headers, "X-Shopify-Topic");
  const shop = header(delivery.headers, "X-Shopify-Shop-Domain");
  const webhookId = header(delivery.headers, "X-Shopify-Webhook-Id");
  if (!topic || !ORDER_TOPICS.has(topic)) return { refused: `not an order topic: ${topic ?? "none"}` };
  if (!shop || !SHOP_DOMAIN.test(shop)) return { refused: "X-Shopify-Shop-Domain is missing or not a shop's domain" };
  if (!webhookId) return { refused: "X-Shopify-Webhook-Id is missing" };
  const triggered = Date.parse(header(delivery.headers, "X-Shopify-Triggered-At") ?? "");
  const payload = delivery.body instanceof RawJson ? delivery.body : delivery.body.parsed;
  return { topic: topicKey(topic), shop, webhookId, triggeredAt: Number.isNaN(triggered) ? null : new Date(triggered), payload };
}

/**
 * Takes deliveries off a queue into the intake. A message that can never be
 * stored (not an order webhook, a malformed order) is acknowledged and
 * logged, so it does not come back forever; one the store could not take
 * now is handed back to the queue to deliver again.
 */
export function createQueueConsumer(accept: (hook: OrderWebhook) => Promise<IntakeResult>, logger: Pick<Logger, "warn">) {
  return async function consume(delivery: QueuedDelivery): Promise<Settlement> {
    const hook = orderWebhookOf(delivery);
    if ("refused" in hook) {
      logger.warn({ reason: hook.refused }, "queued delivery refused");
      return { settle: "ack", outcome: "refused", detail: hook.refused };
    }
    try {
      const result = await accept(hook);
      if (result.outcome === "malformed") logger.warn({ shop: hook.shop, webhookId: hook.webhookId, reason: result.detail }, "queued order webhook malformed");
      return { settle: "ack", ...result };
    } catch {
      // Logged by the intake; the queue delivers the message again.
      return { settle: "retry", outcome: "refused", detail: "the webhook could not be stored" };
    }
  };
}

/** A Pub/Sub message: the headers are its attributes, the order its base64 data. */
export function pubSubDelivery(message: { attributes?: Record<string, string>; data?: string }): QueuedDelivery {
  return { headers: message.attributes ?? {}, body: new RawJson(Buffer.from(message.data ?? "", "base64")) };
}

/**
 * An EventBridge event, as its raw JSON text: the headers are in
 * detail.metadata, the order in detail.payload. Parsed here without losing
 * a 64-bit id, which JSON.parse would round.
 */
export function eventBridgeDelivery(eventText: string): QueuedDelivery {
  let event: { detail?: { metadata?: Record<string, string>; payload?: unknown } } = {};
  try {
    event = (parseShopifyJson(eventText) ?? {}) as typeof event;
  } catch {
    // An event that is not JSON: refused below for want of headers.
  }
  return { headers: event.detail?.metadata ?? {}, body: { parsed: event.detail?.payload } };
}
