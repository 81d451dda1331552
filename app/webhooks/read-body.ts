// Reading a request body with a ceiling: a declared length over it is refused
// before a byte is read, and reading stops as soon as the ceiling is passed.

export type BodyReading = { ok: true; body: Buffer } | { ok: false; status: 413 };

/** How a body that was too large is answered: at once, and the connection closed so the rest is not read. */
export function tooLarge(): Response {
  return new Response("Payload too large", { status: 413, headers: { Connection: "close", "Content-Type": "text/plain" } });
}

export function declaredTooLarge(contentLength: string | null | undefined, limit: number): boolean {
  const declared = Number(contentLength);
  return Number.isFinite(declared) && declared > limit;
}

export async function readBodyWithin(request: Request, limit: number): Promise<BodyReading> {
  if (declaredTooLarge(request.headers.get("Content-Length"), limit)) return { ok: false, status: 413 };
  if (!request.body) return { ok: true, body: Buffer.alloc(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stop reading without cancelling: cancelling destroys the socket before the 413 is written.
      reader.releaseLock();
      return { ok: false, status: 413 };
    }
    chunks.push(value);
  }
  return { ok: true, body: Buffer.concat(chunks, size) };
}
