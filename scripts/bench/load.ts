// The benchmark's load generator: C keep-alive connections, opened before the
// clock starts (as a reverse proxy in front of the app keeps them), each
// sending its share of pre-signed requests one after another: a closed loop,
// like a sender that waits for each answer. Raw sockets, because a
// fetch-based client tops out near 6,700 requests/s on these machines even
// against a server that does nothing, which would measure the client.
import { connect, type Socket } from "node:net";
import { shopifyWebhookHeaders } from "../lib/shopify-webhook";

export interface LoadResult {
  latenciesMs: number[];
  wallMs: number;
  statuses: Record<number, number>;
  /** When each answered request was sent (ms on the load generator's clock), in the order of latenciesMs. */
  sentAtMs: number[];
}

/** A complete HTTP/1.1 request: orders/paid for `body`, signed the way Shopify signs it. */
export function signedOrderRequest(options: { host: string; shop: string; secret: string; body: unknown }): Buffer {
  const raw = Buffer.from(JSON.stringify(options.body));
  const headers = shopifyWebhookHeaders({ topic: "orders/paid", shop: options.shop, raw, secret: options.secret });
  const head = [
    "POST /webhooks/orders/paid HTTP/1.1",
    `Host: ${options.host}`,
    `Content-Length: ${raw.length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), raw]);
}

/** The length of the first complete response in `data`, or 0 when it has not all arrived. */
export function responseLength(data: Buffer): { length: number; status: number } {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd < 0) return { length: 0, status: 0 };
  const head = data.subarray(0, headEnd).toString("latin1");
  const status = Number(head.slice(9, 12));
  const contentLength = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (contentLength) {
    const end = headEnd + 4 + Number(contentLength[1]);
    return { length: data.length >= end ? end : 0, status };
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return { length: headEnd + 4, status };
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) return { length: 0, status };
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    at = lineEnd + 2 + size + 2;
    if (data.length < at) return { length: 0, status };
    if (size === 0) return { length: at, status };
  }
}

/** An open keep-alive connection that sends requests one at a time. */
function openConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.setNoDelay(true);
    socket.once("error", reject);
  });
}

function lane(socket: Socket, requests: Buffer[], result: LoadResult): Promise<void> {
  return new Promise((resolve, reject) => {
    let pending: Buffer = Buffer.alloc(0);
    let next = 0;
    let sentAt = 0;
    const send = () => {
      if (next === requests.length) {
        socket.end();
        return resolve();
      }
      sentAt = performance.now();
      socket.write(requests[next++]!);
    };
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        const { length, status } = responseLength(pending);
        if (length === 0) return;
        result.latenciesMs.push(performance.now() - sentAt);
        result.sentAtMs.push(sentAt);
        result.statuses[status] = (result.statuses[status] ?? 0) + 1;
        pending = pending.subarray(length);
        send();
      }
    });
    send();
  });
}

/**
 * Sends every request with `concurrency` connections, each waiting for its
 * answer before the next. With several ports the connections alternate
 * between them, as a round-robin load balancer spreads them. `onClockStart`
 * is called as the clock starts, the connections open.
 */
export async function sendRequests(ports: number[], requests: Buffer[], concurrency: number, onClockStart?: () => void): Promise<LoadResult> {
  const result: LoadResult = { latenciesMs: [], wallMs: 0, statuses: {}, sentAtMs: [] };
  const shares = Array.from({ length: concurrency }, (_, lane) => requests.filter((_, i) => i % concurrency === lane));
  const busy = shares.filter((share) => share.length > 0);
  const sockets = await Promise.all(busy.map((_, i) => openConnection(ports[i % ports.length]!)));
  // Let the server take the connections in before the clock starts.
  await new Promise((resolve) => setTimeout(resolve, 100));
  onClockStart?.();
  const started = performance.now();
  await Promise.all(busy.map((share, i) => lane(sockets[i]!, share, result)));
  result.wallMs = performance.now() - started;
  return result;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
