import type { Logger } from "pino";
import { parseShopifyJson } from "../../platform/text/lossless-json";
import { RawJson, type Delivery as OrderWebhook, type IntakeResult } from "../../platform/intake/planner";
import type { ShopCheck } from "./installed-shops";
import { ORDER_WEBHOOK_TOPICS } from "./order-webhooks.server";
import { topicKey, TRIGGERED_AT_MAX_AGE_MS, TRIGGERED_AT_MAX_AHEAD_MS } from "../../platform/http/verify-webhook";

// The order webhooks as a queue delivers them (Google Cloud Pub/Sub or
// Amazon EventBridge, docs/decisions/008-beyond-one-database.md): one more
// entry point beside the HTTP path, into the same intake with the same
// idempotency keys. There is no HMAC to check: only the app's own
// subscription can put a message on its queue, so the cloud's access control
// stands where the signature stands on the HTTP path. Its attributes are
// still checked before they are trusted, as the HTTP path checks headers the
// signature does not cover: an order topic that the body's shape agrees with,
// a shop that has the app, a webhook id, and a fresh trigger time.

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
/** Shopify's webhook ids are UUIDs; anything of that alphabet and length is taken. */
const WEBHOOK_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const ORDER_TOPICS = new Set<string>(ORDER_WEBHOOK_TOPICS);
/** A Shopify id as the lossless parse leaves it: a number, or its digits when too long for one. */
const ID = /^[1-9][0-9]{0,19}$/;

function header(headers: QueuedDelivery["headers"], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

const idOf = (value: unknown): string | null => ((typeof value === "number" || typeof value === "string") && ID.test(String(value)) ? String(value) : null);

/**
 * Why a body is not of its topic's shape, or null: an order's body carries
 * its id (and, cancelled, when), a refund's its own id and its order's; where
 * the body names its GraphQL id, that agrees with the id and the kind.
 */
export function shapeProblem(topic: string, body: unknown): string | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return "the body is not a JSON object";
  const fields = body as Record<string, unknown>;
  const id = idOf(fields.id);
  if (!id) return "the body has no id";
  const refund = topic === "refunds/create";
  if (refund && !idOf(fields.order_id)) return "a refund without the id of its order";
  if (!refund && "order_id" in fields) return `a refund's body (it has an order_id) under ${topic}`;
  const gid = fields.admin_graphql_api_id;
  const kind = refund ? "Refund" : "Order";
  if (gid !== undefined && gid !== `gid://shopify/${kind}/${id}`) return `admin_graphql_api_id is not the ${kind} ${id}`;
  if (topic === "orders/cancelled" && !fields.cancelled_at) return "a cancellation without cancelled_at";
  return null;
}

/**
 * Why a delivery is not taken. `later`: it may be taken if delivered again
 * (its shop does not have the app, yet: it may have installed a moment ago).
 */
export interface Refusal {
  refused: string;
  later?: true;
}

/** The order webhook a delivery carries, or why it is not one the app takes. */
export async function orderWebhookOf(delivery: QueuedDelivery, shopHasSession: ShopCheck, now = Date.now()): Promise<OrderWebhook | Refusal> {
  const topic = header(delivery.headers, "X-Shopify-Topic");
  const shop = header(delivery.headers, "X-Shopify-Shop-Domain");
  const webhookId = header(delivery.headers, "X-Shopify-Webhook-Id");
  const triggeredAt = header(delivery.headers, "X-Shopify-Triggered-At");
  if (!topic || !ORDER_TOPICS.has(topic)) return { refused: `not an order topic: ${topic ?? "none"}` };
  if (!shop || !SHOP_DOMAIN.test(shop)) return { refused: "X-Shopify-Shop-Domain is missing or not a shop's domain" };
  if (!webhookId || !WEBHOOK_ID.test(webhookId)) return { refused: "X-Shopify-Webhook-Id is missing or not a webhook id" };
  const triggered = Date.parse(triggeredAt ?? "");
  if (Number.isNaN(triggered)) return { refused: "X-Shopify-Triggered-At is missing or not a time" };
  if (now - triggered > TRIGGERED_AT_MAX_AGE_MS) return { refused: "the delivery was triggered more than a day ago" };
  if (triggered - now > TRIGGERED_AT_MAX_AHEAD_MS) return { refused: "the delivery was triggered in the future" };
  let payload: unknown;
  try {
    payload = delivery.body instanceof RawJson ? parseShopifyJson(delivery.body.bytes.toString("utf8")) : delivery.body.parsed;
  } catch {
    return { refused: "the body is not JSON" };
  }
  const problem = shapeProblem(topic, payload);
  if (problem) return { refused: `the body is not of ${topic}'s shape: ${problem}` };
  // Last, as it may ask the database: only for a delivery that is otherwise sound.
  if (!(await shopHasSession(shop))) return { refused: `${shop} does not have the app installed (no session)`, later: true };
  return { topic: topicKey(topic), shop, webhookId, triggeredAt: new Date(triggered), payload: delivery.body instanceof RawJson ? delivery.body : payload };
}

/** A delivery acknowledged without being stored, kept for the merchant of the shop it names. */
export interface RefusedDelivery {
  shop: string;
  topic: string;
  webhookId: string | null;
  reason: string;
}

export interface QueueConsumerDeps {
  /** The intake: stores a webhook, resolves once it is committed. */
  store(hook: OrderWebhook): Promise<IntakeResult>;
  /** Whether the shop has the app installed (cheap: cached). */
  shopHasSession: ShopCheck;
  /** Keeps a refusal for the shop's merchant to see; resolves once it is kept. */
  keepRefusal(refusal: RefusedDelivery): Promise<void>;
  logger: Pick<Logger, "warn">;
}

/** Settles one delivery taken off the queue. */
export type QueueConsumer = (delivery: QueuedDelivery) => Promise<Settlement>;

/**
 * Takes deliveries off a queue into the intake. A message that can never be
 * stored (not an order webhook, a malformed order) is acknowledged and
 * logged, so it does not come back forever; one the store could not take
 * now (or whose shop could not be checked) is handed back to the queue to
 * deliver again. So is one whose shop does not have the app, as the HTTP
 * path answers it 403 for Shopify to deliver again: the shop may have
 * installed a moment ago. That does not go on forever either: a day after
 * it was triggered, the delivery is refused as stale and acknowledged.
 */
export function createQueueConsumer({ store, shopHasSession, keepRefusal, logger }: QueueConsumerDeps): QueueConsumer {
  /**
   * Keeps a refusal for the merchant when the delivery is one of an order
   * topic (an order of theirs that was not recorded; another topic loses
   * them nothing) and names a shop that has the app. False when it could not
   * be kept now: the message is then handed back, to be refused and kept
   * when it comes again.
   */
  async function shownToMerchant(delivery: QueuedDelivery, reason: string): Promise<boolean> {
    const shop = header(delivery.headers, "X-Shopify-Shop-Domain");
    const topic = header(delivery.headers, "X-Shopify-Topic");
    if (!shop || !SHOP_DOMAIN.test(shop) || !topic || !ORDER_TOPICS.has(topic)) return true;
    try {
      if (!(await shopHasSession(shop))) return true;
      await keepRefusal({ shop, topic, webhookId: header(delivery.headers, "X-Shopify-Webhook-Id")?.slice(0, 100) ?? null, reason: reason.slice(0, 500) });
      return true;
    } catch {
      return false;
    }
  }

  return async function consume(delivery: QueuedDelivery): Promise<Settlement> {
    let hook: OrderWebhook | Refusal;
    try {
      hook = await orderWebhookOf(delivery, shopHasSession);
    } catch {
      return { settle: "retry", outcome: "refused", detail: "the shop could not be checked" };
    }
    if ("refused" in hook) {
      if (hook.later) return { settle: "retry", outcome: "no_session", detail: hook.refused };
      logger.warn({ reason: hook.refused }, "queued delivery refused");
      if (!(await shownToMerchant(delivery, hook.refused))) return { settle: "retry", outcome: "refused", detail: "the refusal could not be kept" };
      return { settle: "ack", outcome: "refused", detail: hook.refused };
    }
    let result: IntakeResult;
    try {
      result = await store(hook);
    } catch {
      // Logged by the intake; the queue delivers the message again.
      return { settle: "retry", outcome: "refused", detail: "the webhook could not be stored" };
    }
    if (result.outcome === "malformed") {
      logger.warn({ shop: hook.shop, webhookId: hook.webhookId, reason: result.detail }, "queued order webhook malformed");
      if (!(await shownToMerchant(delivery, result.detail ?? "the order could not be read"))) return { settle: "retry", outcome: "refused", detail: "the refusal could not be kept" };
    }
    return { settle: "ack", ...result };
  };
}

/** A Pub/Sub message: the headers are its attributes, the order its data (base64 in the REST form, bytes as the client library hands it over). */
export function pubSubDelivery(message: { attributes?: Record<string, string>; data?: string | Buffer }): QueuedDelivery {
  const data = Buffer.isBuffer(message.data) ? message.data : Buffer.from(message.data ?? "", "base64");
  return { headers: message.attributes ?? {}, body: new RawJson(data) };
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
