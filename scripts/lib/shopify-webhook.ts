import { createHmac, randomUUID } from "node:crypto";

export interface SentWebhook {
  status: number;
  ms: number;
  body: string;
}

/** The headers Shopify sends with a webhook, signed with the app secret (HMAC-SHA256 of the raw body). */
export function shopifyWebhookHeaders(options: { topic: string; shop: string; raw: string | Buffer; secret: string; webhookId?: string }): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "X-Shopify-Topic": options.topic,
    "X-Shopify-Shop-Domain": options.shop,
    "X-Shopify-Hmac-Sha256": createHmac("sha256", options.secret).update(options.raw).digest("base64"),
    "X-Shopify-Webhook-Id": options.webhookId ?? randomUUID(),
    "X-Shopify-Api-Version": "2026-10",
    "X-Shopify-Triggered-At": new Date().toISOString(),
  };
}

/** Posts a webhook signed the way Shopify signs it (HMAC-SHA256 of the raw body with the app secret). */
export async function sendShopifyWebhook(options: {
  appUrl: string;
  topic: string;
  shop: string;
  body: unknown;
  secret: string;
  webhookId?: string;
}): Promise<SentWebhook> {
  const raw = JSON.stringify(options.body);
  const started = performance.now();
  const response = await fetch(`${options.appUrl}/webhooks/${options.topic}`, {
    method: "POST",
    body: raw,
    headers: shopifyWebhookHeaders({ topic: options.topic, shop: options.shop, raw, secret: options.secret, webhookId: options.webhookId }),
  });
  const body = await response.text();
  return { status: response.status, ms: performance.now() - started, body };
}
