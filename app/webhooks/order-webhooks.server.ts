import type { IncomingMessage, ServerResponse } from "node:http";
import type { ActionFunctionArgs } from "@remix-run/node";
import { getEnv } from "../env.server";
import { acknowledging } from "../jobs/acknowledgements";
import { logger } from "../logger.server";
import { RawJson } from "../referrals/order-intake";
import { acceptOrderWebhook } from "../referrals/order-webhooks.server";
import { verifyShopifyWebhook, type HeaderReader } from "./verify-webhook";

// The order webhooks, the app's hot path: verify, store the job, answer.
// Served two ways with the same code: by the production server before
// Remix sees the request (server.mjs: no Fetch Request, no route matching),
// and by the Remix routes (remix dev, and any server without that shortcut).

/** The order topics the app subscribes to, each at /webhooks/<topic>. */
const ORDER_WEBHOOK_TOPICS = ["orders/paid", "orders/create", "orders/cancelled", "refunds/create"] as const;
const ORDER_WEBHOOK_PATHS = new Set(ORDER_WEBHOOK_TOPICS.map((topic) => `/webhooks/${topic}`));

/** Shopify caps a webhook payload well below this. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface WebhookAnswer {
  status: number;
  body?: string;
}

type Delivery = { method: string; rawBody: Buffer; header: HeaderReader };

let stopping = false;

/** The process is stopping: order webhooks are refused from now on, and Shopify delivers them again later. */
export function stopTakingOrderWebhooks(): void {
  stopping = true;
}

const STOPPING: WebhookAnswer = { status: 503, body: "The app is restarting; please deliver the webhook again." };

export function receiveOrderWebhook(delivery: Delivery): Promise<WebhookAnswer> {
  if (stopping) return Promise.resolve(STOPPING);
  return acknowledging(async () => {
    const verification = verifyShopifyWebhook(delivery, getEnv().SHOPIFY_API_SECRET);
    if (!verification.ok) {
      logger.debug({ reason: verification.reason }, "order webhook refused");
      return { status: verification.status };
    }
    const { shop, topic, webhookId, triggeredAt } = verification.webhook;
    try {
      const result = await acceptOrderWebhook({ shop, topic, payload: new RawJson(delivery.rawBody), webhookId, triggeredAt });
      if (result.outcome === "malformed") return { status: 400, body: `Malformed payload: ${result.detail}` };
      return { status: 200 };
    } catch {
      // Logged by the intake. Shopify delivers a webhook again until it gets a 2xx.
      return { status: 503, body: "The webhook could not be stored; please deliver it again." };
    }
  });
}

/** The Remix action of every order topic route. */
export async function orderWebhookAction({ request }: ActionFunctionArgs): Promise<Response> {
  const answer = await receiveOrderWebhook({
    method: request.method,
    rawBody: Buffer.from(await request.arrayBuffer()),
    header: (name) => request.headers.get(name),
  });
  return new Response(answer.body ?? null, { status: answer.status });
}

/**
 * The production server's shortcut: answers an order webhook straight from
 * Node's request, and returns false for any other request (Remix's then).
 */
export function serveOrderWebhook(req: IncomingMessage, res: ServerResponse): boolean {
  const path = req.url?.split("?", 1)[0];
  if (!path || !ORDER_WEBHOOK_PATHS.has(path)) return false;
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on("end", () => {
    if (size > MAX_BODY_BYTES) return answer(res, { status: 413 });
    const rawBody = Buffer.concat(chunks, size);
    const header = (name: string) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    };
    receiveOrderWebhook({ method: req.method ?? "GET", rawBody, header }).then(
      (result) => answer(res, result),
      () => answer(res, { status: 500 }),
    );
  });
  req.on("error", () => res.destroy());
  return true;
}

function answer(res: ServerResponse, { status, body = "" }: WebhookAnswer) {
  // Headers as a flat list: Node writes them as they are, without building a header map first.
  res.writeHead(status, ["Content-Type", "text/plain; charset=utf-8", "Content-Length", String(Buffer.byteLength(body))]);
  res.end(body);
}
