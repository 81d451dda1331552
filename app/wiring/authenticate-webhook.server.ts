import { getEnv } from "./env.server";
import { parseKeepingLongIntegers } from "../platform/text/lossless-json";
import { authenticate } from "./shopify.server";
import { readBodyWithin, TOO_SLOW_TEXT, tooLarge, unreadAnswer, WEBHOOK_BODY_DEADLINE_MS } from "../platform/http/read-body";
import { checkSignaturePresent, checkSignedFirst } from "../platform/http/verify-webhook";

/** Every other Shopify topic the app takes (compliance, app lifecycle) has a payload of a few kilobytes. */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

/**
 * authenticate.webhook for the route of one topic, signature first (Shopify
 * requires it of the compliance topics, and the app's lifecycle topics get
 * the same): a delivery without one HMAC header is refused with 401 before
 * its body is read; then a body within the limit (read no further) and the
 * deadline; then the signature (401), and only a signed delivery is held to
 * Shopify's other headers, this route's topic and a fresh trigger time
 * (400). Refusals are thrown as Responses, as authenticate.webhook does. A
 * shop without a session is not refused: these topics come after
 * uninstalling too.
 */
export async function authenticateWebhookAt(request: Request, topic: string) {
  const header = (name: string) => request.headers.get(name);
  const unsigned = checkSignaturePresent(header);
  if (unsigned) throw unreadAnswer(unsigned.status);
  const reading = await readBodyWithin(request, MAX_WEBHOOK_BODY_BYTES, { deadlineMs: WEBHOOK_BODY_DEADLINE_MS });
  if (!reading.ok) throw reading.status === 408 ? unreadAnswer(408, TOO_SLOW_TEXT) : tooLarge();
  const refusal = checkSignedFirst(reading.body, header, topic, getEnv().SHOPIFY_API_SECRET);
  if (refusal) throw new Response(null, { status: refusal.status });
  const context = await authenticate.webhook(new Request(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(reading.body) }));
  // The library's JSON.parse rounds Shopify's 64-bit ids (a customer's, the orders to redact): read them digit for digit.
  return { ...context, payload: parseKeepingLongIntegers(Buffer.from(reading.body).toString("utf8")) };
}

const SHOP_ID = /^[1-9][0-9]{0,19}$/;

/**
 * A compliance payload names its shop (`shop_domain`, `shop_id`); both must be
 * there, and the domain must be the one the delivery is for, so a body signed
 * for one shop cannot be replayed against another.
 */
export function complianceShopMatches(payload: unknown, shop: string): boolean {
  if (!payload || typeof payload !== "object") return false;
  const { shop_domain: domain, shop_id: id } = payload as Record<string, unknown>;
  return typeof domain === "string" && domain.toLowerCase() === shop.toLowerCase() && (typeof id === "number" || typeof id === "string") && SHOP_ID.test(String(id));
}

/** The answer to a signed body that names another shop than the delivery's header (which the signature does not cover). */
const OTHER_SHOP_ANSWER = () => new Response("The payload is for another shop", { status: 400 });

/**
 * The app/uninstalled payload is the shop itself: its `myshopify_domain`
 * (or, only where that is missing, `domain`, which may be a custom domain)
 * must be the delivery's shop. Any other signed body (an order, a
 * compliance request) names no shop this way and is refused.
 */
export function uninstallShopMatches(payload: unknown, shop: string): boolean {
  if (!payload || typeof payload !== "object") return false;
  const { myshopify_domain: myshopify, domain } = payload as Record<string, unknown>;
  const named = myshopify ?? domain;
  return typeof named === "string" && named.toLowerCase() === shop.toLowerCase();
}

/** authenticateWebhookAt for app/uninstalled, the payload's shop checked against the delivery's before anything changes. */
export async function authenticateUninstallWebhook(request: Request) {
  const context = await authenticateWebhookAt(request, "app/uninstalled");
  if (!uninstallShopMatches(context.payload, context.shop)) throw OTHER_SHOP_ANSWER();
  return context;
}

/** authenticateWebhookAt for a compliance topic, the payload's shop checked against the delivery's. */
export async function authenticateComplianceWebhook(request: Request, topic: "customers/data_request" | "customers/redact" | "shop/redact") {
  const context = await authenticateWebhookAt(request, topic);
  if (!complianceShopMatches(context.payload, context.shop)) throw OTHER_SHOP_ANSWER();
  return context;
}
