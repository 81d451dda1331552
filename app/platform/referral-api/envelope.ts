import { isRecord, parseText } from "./scalars";

/**
 * The v2 envelope: `{ response: { code, message, data | errors } }`.
 * Tolerated variants: the envelope fields at the top level, `errors` as
 * `{ error: [...] }`, a plain array, a string or an object of arrays, and (only
 * where the operation allows it, e.g. compliance/export) an unwrapped document.
 */
export type EnvelopeReading =
  | { ok: true; data: unknown; code?: string; message?: string }
  | { ok: false; code?: string; message?: string; errors: string[]; recognised: boolean };

/** Every string inside an `errors` value, in order, exactly as sent. */
export function flattenErrors(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(flattenErrors);
  if (isRecord(value)) return Object.values(value).flatMap(flattenErrors);
  const text = parseText(value) ?? (typeof value === "boolean" ? String(value) : null);
  return text === null || text === "" ? [] : [text];
}

function findEnvelope(body: unknown): Record<string, unknown> | null {
  if (!isRecord(body)) return null;
  if (isRecord(body.response)) return body.response;
  if ("code" in body && ("data" in body || "errors" in body || "message" in body)) return body;
  return null;
}

export function readEnvelope(body: unknown, options: { allowUnwrapped?: boolean } = {}): EnvelopeReading {
  const envelope = findEnvelope(body);
  if (!envelope) {
    if (options.allowUnwrapped && isRecord(body)) return { ok: true, data: body };
    // Some failure bodies skip the envelope (e.g. `{ "detail": "..." }` or `{ "error": "..." }`).
    const errors = isRecord(body) ? flattenErrors(body.errors ?? body.error ?? body.detail ?? body.message) : [];
    return { ok: false, errors, recognised: false };
  }

  const code = parseText(envelope.code) ?? undefined;
  const message = parseText(envelope.message) ?? undefined;
  const errors = flattenErrors(envelope.errors);
  const successCode = code === undefined || code.startsWith("2");
  if (errors.length === 0 && successCode) {
    return { ok: true, data: envelope.data ?? {}, code, message };
  }
  return { ok: false, code, message, errors: errors.length > 0 ? errors : message ? [message] : [], recognised: true };
}
