import type { IncomingMessage, ServerResponse } from "node:http";

export const BODY_LIMIT_BYTES = 1024 * 1024;

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

export async function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyError(413, `The request body is larger than ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function scalar(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) return value.join(",");
  throw new BodyError(400, "JSON body values must be strings, numbers, booleans or lists of them.");
}

/**
 * Form fields of a body: application/x-www-form-urlencoded, multipart/form-data or a
 * JSON object. Without a usable content type, a body that looks like JSON is read as
 * JSON and anything else as a URL-encoded form.
 */
export async function parseBody(body: Buffer, contentType: string | undefined): Promise<Map<string, string>> {
  const fields = new Map<string, string>();
  if (body.length === 0) return fields;
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  const text = body.toString("utf8");

  if (type === "application/json" || type.endsWith("+json") || (!type.includes("form") && /^\s*[{[]/.test(text))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new BodyError(400, "The request body is not valid JSON.");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new BodyError(400, "The JSON body must be an object of parameters.");
    }
    for (const [key, value] of Object.entries(parsed)) {
      const converted = scalar(value);
      if (converted !== undefined) fields.set(key, converted);
    }
    return fields;
  }

  if (type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType! } }).formData();
    } catch {
      throw new BodyError(400, "The multipart body could not be parsed.");
    }
    for (const [key, value] of form.entries()) if (typeof value === "string") fields.set(key, value);
    return fields;
  }

  for (const [key, value] of new URLSearchParams(text)) fields.set(key, value);
  return fields;
}

export function queryFields(url: URL): Map<string, string> {
  return new Map(url.searchParams.entries());
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(payload),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(payload);
}

export function isLoopback(address: string | undefined): boolean {
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
}
