import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Logger } from "../../platform/logger/logger.server";
import { RawJson, type Delivery as OrderWebhook, type IntakeResult } from "../../platform/intake/planner";
import { acknowledging } from "./acknowledgements";
import type { ShopCheck } from "./installed-shops";
import { declaredTooLarge, readBodyWithin, TOO_SLOW_TEXT, unreadAnswer, WEBHOOK_BODY_DEADLINE_MS } from "../../platform/http/read-body";
import { checkUnsignedHeaders, verifyShopifyWebhook, type HeaderReader } from "../../platform/http/verify-webhook";

// The order webhooks, the app's hot path, in four steps: check what the
// headers alone say (answered before the body is read: a missing or repeated
// signature, another topic), serve (read the body, within a size and a
// deadline), verify (its signature, then a shop without the app), store (the order's
// record and job, in the intake's group commit); then answer. Served two
// ways with the same code: by the production server before Remix sees the
// request (server.mjs: no Fetch Request, no route matching), and by the
// Remix routes (remix dev, and any server without that shortcut).

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
const TOO_LARGE: WebhookAnswer = { status: 413, body: "Payload too large" };
const TOO_SLOW: WebhookAnswer = { status: 408, body: TOO_SLOW_TEXT };
/** Not 200: should the shop have installed a moment ago, Shopify delivers the webhook again. */
const NOT_INSTALLED: WebhookAnswer = { status: 403, body: "The app is not installed on this shop." };
const SHOP_UNCHECKED: WebhookAnswer = { status: 503, body: "The shop could not be checked; please deliver the webhook again." };

/** What is known of a delivery before its body is read. */
type Arrival = { method: string; header: HeaderReader; expectedTopic: string };

export interface OrderWebhookDeps {
  /** The app's client secret: the key of the webhooks' HMAC. */
  secret: string;
  /** Whether the shop has the app installed (cheap: cached). */
  shopHasSession: ShopCheck;
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

  /** The answer a delivery gets before its body is read, or null to read it. */
  async function answerUnread({ method, header, expectedTopic }: Arrival): Promise<WebhookAnswer | null> {
    if (stopping) return STOPPING;
    if (method !== "POST") return { status: 405 };
    if (declaredTooLarge(header("Content-Length"), MAX_ORDER_BODY_BYTES)) return TOO_LARGE;
    const refusal = checkUnsignedHeaders(header, expectedTopic);
    if (refusal) {
      deps.logger.debug({ reason: refusal.reason }, "order webhook refused");
      return { status: refusal.status };
    }
    return null;
  }

  /**
   * A signed delivery for a shop without the app: 403, so that Shopify
   * delivers it again should the shop have installed a moment ago. Asked only
   * after the signature, so a forged delivery gets the same 401 for every
   * shop and the app's merchants cannot be listed by it.
   */
  async function answerUninstalled(shop: string): Promise<WebhookAnswer | null> {
    try {
      if (await deps.shopHasSession(shop)) return null;
    } catch {
      return SHOP_UNCHECKED;
    }
    deps.logger.debug({ shop }, "order webhook refused: the shop has no session");
    return NOT_INSTALLED;
  }

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
      const uninstalled = await answerUninstalled(shop);
      if (uninstalled) return uninstalled;
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
    serve: (req, res) => serveNodeRequest(req, res, answerUnread, answerDelivery),
    async serveRequest(request) {
      const expectedTopic = orderTopicOfPath(new URL(request.url).pathname);
      if (!expectedTopic) return new Response(null, { status: 404 });
      const arrival: Arrival = { method: request.method, header: (name) => request.headers.get(name), expectedTopic };
      const early = await answerUnread(arrival);
      if (early) return unreadAnswer(early.status, early.body);
      const reading = await readBodyWithin(request, MAX_ORDER_BODY_BYTES, { deadlineMs: WEBHOOK_BODY_DEADLINE_MS });
      if (!reading.ok) return reading.status === 408 ? unreadAnswer(408, TOO_SLOW.body) : unreadAnswer(413, TOO_LARGE.body);
      const answer = await answerDelivery({ ...arrival, rawBody: reading.body });
      return new Response(answer.body ?? null, { status: answer.status });
    },
    stop() {
      stopping = true;
    },
  };
}

function serveNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  answerUnread: (arrival: Arrival) => Promise<WebhookAnswer | null>,
  answerDelivery: (delivery: Delivery) => Promise<WebhookAnswer>,
): boolean {
  const expectedTopic = orderTopicOfPath(req.url?.split("?", 1)[0] ?? "");
  if (!expectedTopic) return false;
  const header = (name: string) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(", ") : value;
  };
  const arrival: Arrival = { method: req.method ?? "GET", header, expectedTopic };
  // A slow client (one that trickles the body, or sends none) is cut off, its socket soon let go.
  const deadline = setTimeout(() => answerOnce(() => refuseUnread(req, res, TOO_SLOW, 1_000)), WEBHOOK_BODY_DEADLINE_MS);
  req.once("close", () => clearTimeout(deadline));
  req.on("error", () => {
    clearTimeout(deadline);
    res.destroy();
  });
  // Whichever comes first answers: the checks, the deadline, the body read whole (or past its limit).
  let answered = false;
  function answerOnce(answerWith: () => void) {
    if (answered) return;
    answered = true;
    clearTimeout(deadline);
    answerWith();
  }

  answerUnread(arrival).then(
    (early) => {
      if (early) return answerOnce(() => refuseUnread(req, res, early));
      if (answered) return;
      readBody(req, (rawBody) =>
        answerOnce(() => {
          if (!rawBody) return refuseUnread(req, res, TOO_LARGE);
          answerDelivery({ ...arrival, rawBody }).then(
            (result) => answer(res, result),
            () => answer(res, { status: 500 }),
          );
        }),
      );
    },
    () => answerOnce(() => refuseUnread(req, res, { status: 500 })),
  );
  return true;
}

/** Reads the body whole (the Buffer), or stops at MAX_ORDER_BODY_BYTES (null) and reads no further. */
function readBody(req: IncomingMessage, done: (rawBody: Buffer | null) => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on("data", (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > MAX_ORDER_BODY_BYTES) {
      over = true;
      return done(null);
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    // A body that came in one chunk (most do) is used as it is: the chunk has a buffer of its own, of its
    // exact size, which crosses to the intake's thread as it is, where a copy would come from an 8 KB pool slab that crosses whole.
    if (!over) done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  });
}

/**
 * Answers at once and reads no further: the request is paused (so the
 * socket stops being read once its small buffer is full) and the answer is
 * written straight to the socket, which is closed a moment later. Node's own
 * ending would either read the rest of the body to discard it or reset the
 * connection before the client read the answer.
 */
function refuseUnread(req: IncomingMessage, res: ServerResponse, { status, body = "" }: WebhookAnswer, graceMs = 10_000) {
  req.pause();
  const socket = req.socket;
  if (socket.destroyed) return;
  res.detachSocket(socket);
  // A FIN after the answer, not a reset: closing a socket with unread data sends RST, which can make the
  // client drop the answer it has not read yet. The socket goes for good once the client had time to read it.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), graceMs).unref();
}

function answer(res: ServerResponse, { status, body = "" }: WebhookAnswer) {
  // Headers as a flat list: Node writes them as they are, without building a header map first.
  res.writeHead(status, ["Content-Type", "text/plain; charset=utf-8", "Content-Length", String(Buffer.byteLength(body))]);
  res.end(body);
}
