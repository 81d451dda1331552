import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../logger.server";
import { RawJson, type IntakeResult, type OrderWebhook } from "../referrals/order-intake";
import { acknowledging } from "./acknowledgements";
import { declaredTooLarge, readBodyWithin, tooLarge } from "./read-body";
import { verifyShopifyWebhook, type HeaderReader } from "./verify-webhook";

// The order webhooks, the app's hot path, in three steps: serve (read the
// request), verify (its signature and headers), store (the order's record
// and job, in the intake's group commit); then answer. Served two ways with
// the same code: by the production server before Remix sees the request
// (server.mjs: no Fetch Request, no route matching), and by the Remix routes
// (remix dev, and any server without that shortcut).

/** The order topics the app subscribes to, each at /webhooks/<topic>. */
export const ORDER_WEBHOOK_TOPICS = ["orders/paid", "orders/create", "orders/cancelled", "refunds/create"] as const;
const ORDER_WEBHOOK_PATHS = new Set(ORDER_WEBHOOK_TOPICS.map((topic) => `/webhooks/${topic}`));

/**
 * An order payload is a few to tens of kilobytes; one with several hundred
 * line items stays under a megabyte. Anything past this is not Shopify's.
 */
export const MAX_ORDER_BODY_BYTES = 2 * 1024 * 1024;

export interface WebhookAnswer {
  status: number;
  body?: string;
}

/** `expectedTopic` is the topic of the address the delivery came to: the header must name it. */
type Delivery = { method: string; rawBody: Buffer; header: HeaderReader; expectedTopic: string };

/** The order topic an address serves, e.g. "/webhooks/orders/paid" → "orders/paid". */
export function orderTopicOfPath(path: string): string | null {
  return ORDER_WEBHOOK_PATHS.has(path) ? path.slice("/webhooks/".length) : null;
}

const STOPPING: WebhookAnswer = { status: 503, body: "The app is restarting; please deliver the webhook again." };

export interface OrderWebhookDeps {
  /** The app's client secret: the key of the webhooks' HMAC. */
  secret: string;
  /** Stores a verified webhook; resolves once it is committed. */
  store(hook: OrderWebhook): Promise<IntakeResult>;
  logger: Pick<Logger, "debug">;
}

export interface OrderWebhooks {
  /** The production server's shortcut: answers an order webhook straight from Node's request; false for any other request (Remix's then). */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** The same for a Fetch Request: the Remix action of every order topic route. */
  serveRequest(request: Request): Promise<Response>;
  /** The process is stopping: order webhooks are refused from now on (503), and Shopify delivers them again later. */
  stop(): void;
}

export function createOrderWebhooks(deps: OrderWebhookDeps): OrderWebhooks {
  let stopping = false;

  /** Verifies a delivery that was read whole, stores it, and says what to answer. */
  function answerDelivery(delivery: Delivery): Promise<WebhookAnswer> {
    if (stopping) return Promise.resolve(STOPPING);
    return acknowledging(async () => {
      const verification = verifyShopifyWebhook(delivery, deps.secret);
      if (!verification.ok) {
        deps.logger.debug({ reason: verification.reason }, "order webhook refused");
        return { status: verification.status };
      }
      const { shop, topic, webhookId, triggeredAt } = verification.webhook;
      try {
        const result = await deps.store({ shop, topic, payload: new RawJson(delivery.rawBody), webhookId, triggeredAt });
        if (result.outcome === "malformed") return { status: 400, body: `Malformed payload: ${result.detail}` };
        return { status: 200 };
      } catch {
        // Logged by the intake. Shopify delivers a webhook again until it gets a 2xx.
        return { status: 503, body: "The webhook could not be stored; please deliver it again." };
      }
    });
  }

  return {
    serve: (req, res) => serveNodeRequest(req, res, answerDelivery),
    async serveRequest(request) {
      const expectedTopic = orderTopicOfPath(new URL(request.url).pathname);
      if (!expectedTopic) return new Response(null, { status: 404 });
      const reading = await readBodyWithin(request, MAX_ORDER_BODY_BYTES);
      if (!reading.ok) return tooLarge();
      const answer = await answerDelivery({ method: request.method, rawBody: reading.body, header: (name) => request.headers.get(name), expectedTopic });
      return new Response(answer.body ?? null, { status: answer.status });
    },
    stop() {
      stopping = true;
    },
  };
}

function serveNodeRequest(req: IncomingMessage, res: ServerResponse, answerDelivery: (delivery: Delivery) => Promise<WebhookAnswer>): boolean {
  const expectedTopic = orderTopicOfPath(req.url?.split("?", 1)[0] ?? "");
  if (!expectedTopic) return false;
  if (declaredTooLarge(req.headers["content-length"], MAX_ORDER_BODY_BYTES)) {
    refuseTooLarge(req, res);
    return true;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on("data", (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > MAX_ORDER_BODY_BYTES) {
      refused = true;
      refuseTooLarge(req, res);
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (refused) return;
    const rawBody = Buffer.concat(chunks, size);
    const header = (name: string) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    };
    answerDelivery({ method: req.method ?? "GET", rawBody, header, expectedTopic }).then(
      (result) => answer(res, result),
      () => answer(res, { status: 500 }),
    );
  });
  req.on("error", () => res.destroy());
  return true;
}

/**
 * Answers 413 at once and reads no further: the request is paused (so the
 * socket stops being read once its small buffer is full) and the answer is
 * written straight to the socket, which is closed a moment later. Node's own
 * ending would either read the rest of the body to discard it or reset the
 * connection before the client read the answer.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse) {
  req.pause();
  const socket = req.socket;
  res.detachSocket(socket);
  const body = "Payload too large";
  // A FIN after the answer, not a reset: closing a socket with unread data sends RST, which can make the
  // client drop the answer it has not read yet. The socket goes for good once the client had time to read it.
  socket.end(`HTTP/1.1 413 Payload Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 10_000).unref();
}

function answer(res: ServerResponse, { status, body = "" }: WebhookAnswer) {
  // Headers as a flat list: Node writes them as they are, without building a header map first.
  res.writeHead(status, ["Content-Type", "text/plain; charset=utf-8", "Content-Length", String(Buffer.byteLength(body))]);
  res.end(body);
}
