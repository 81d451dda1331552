// Requests signed the way Shopify signs them, with Shopify's own test helpers.
import { randomUUID } from "node:crypto";
import { getHmac } from "@shopify/shopify-api/test-helpers";

export const TEST_SHOP = "referral-demo.myshopify.com";

export interface WebhookOptions {
  topic: string;
  shop?: string;
  body: unknown;
  /** The body's exact text, instead of JSON.stringify(body): for numbers JavaScript cannot hold, such as 19-digit ids. */
  raw?: string;
  webhookId?: string;
  /** Sign with another secret to forge the request. */
  secret?: string;
  triggeredAt?: string;
  url?: string;
}

export function signedWebhook(options: WebhookOptions): Request {
  const raw = options.raw ?? JSON.stringify(options.body);
  const secret = options.secret ?? process.env.SHOPIFY_API_SECRET!;
  return new Request(options.url ?? `${process.env.SHOPIFY_APP_URL}/webhooks/${options.topic}`, {
    method: "POST",
    body: raw,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": options.topic,
      "X-Shopify-Shop-Domain": options.shop ?? TEST_SHOP,
      "X-Shopify-Hmac-Sha256": getHmac(raw, secret),
      "X-Shopify-Webhook-Id": options.webhookId ?? randomUUID(),
      "X-Shopify-Api-Version": "2026-10",
      "X-Shopify-Triggered-At": options.triggeredAt ?? new Date().toISOString(),
      "X-Shopify-Event-Id": randomUUID(),
    },
  });
}

/** The arguments Remix passes to an action or loader. */
export function routeArgs(request: Request, params: Record<string, string> = {}) {
  return { request, params, context: {} };
}
