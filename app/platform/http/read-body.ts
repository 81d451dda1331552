// Reading a request body with a ceiling: a declared length over it is refused
// before a byte is read, and reading stops as soon as the ceiling is passed.
// Webhook bodies also have a deadline, so that a client that sends its
// headers and then trickles the body (or nothing) cannot hold a connection.

export type BodyReading = { ok: true; body: Buffer } | { ok: false; status: 413 | 408 };

/** How long a webhook's body may take to arrive, from the moment its headers did. Shopify sends a whole order in milliseconds. */
export const WEBHOOK_BODY_DEADLINE_MS = 10_000;

/**
 * An answer given without reading the rest of the body: the connection is
 * closed after it, so the rest is not read (nor waited for).
 */
export function unreadAnswer(status: number, text?: string): Response {
  return new Response(text ?? null, { status, headers: { Connection: "close", "Content-Type": "text/plain; charset=utf-8" } });
}

/** How a body that was too large is answered: at once, and the connection closed so the rest is not read. */
export function tooLarge(): Response {
  return unreadAnswer(413, "Payload too large");
}

export const TOO_SLOW_TEXT = "The request body did not arrive in time";

export function declaredTooLarge(contentLength: string | null | undefined, limit: number): boolean {
  const declared = Number(contentLength);
  return Number.isFinite(declared) && declared > limit;
}

/** Reads a body up to `limit` bytes (413 past it) and, given `deadlineMs`, within that time (408 after it). */
export async function readBodyWithin(request: Request, limit: number, options: { deadlineMs?: number } = {}): Promise<BodyReading> {
  if (declaredTooLarge(request.headers.get("Content-Length"), limit)) return { ok: false, status: 413 };
  if (!request.body) return { ok: true, body: Buffer.alloc(0) };
  const reader = request.body.getReader();
  let timer: NodeJS.Timeout | undefined;
  const expired =
    options.deadlineMs === undefined ? null : new Promise<"expired">((resolve) => (timer = setTimeout(() => resolve("expired"), options.deadlineMs)));
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = expired ? await Promise.race([reader.read(), expired]) : await reader.read();
      // Stop reading without cancelling: cancelling destroys the socket before the answer is written.
      if (next === "expired") {
        reader.releaseLock();
        return { ok: false, status: 408 };
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit) {
        reader.releaseLock();
        return { ok: false, status: 413 };
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return { ok: true, body: Buffer.concat(chunks, size) };
}
