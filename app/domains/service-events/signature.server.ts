import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "X-SERVICE-HMAC-SHA256";

/** Which bytes the signature was computed over: only the raw body is accepted ("sorted" rows are from before). */
export type SignedForm = "raw" | "sorted";

export type SignatureCheck = { ok: true; form: SignedForm } | { ok: false };

export function signServiceBody(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

/**
 * Checks X-SERVICE-HMAC-SHA256: the base64 HMAC-SHA256 of the raw body, as
 * received, with the shop's secret; nothing else. (Accepting a signature of
 * a re-serialised form would let other bytes than the signed ones through.)
 * The comparison is constant-time.
 */
export function verifyServiceSignature(rawBody: string, signature: string | null | undefined, secret: string): SignatureCheck {
  const given = (signature ?? "").trim();
  if (given === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(given)) return { ok: false };
  const expected = createHmac("sha256", secret).update(rawBody, "utf8").digest();
  const givenBytes = Buffer.from(given, "base64");
  return givenBytes.length === expected.length && timingSafeEqual(givenBytes, expected) ? { ok: true, form: "raw" } : { ok: false };
}

/** The first of `secrets` whose signature the delivery carries, in the order given. */
export function verifyWithAny<W extends string>(
  rawBody: string,
  signature: string | null | undefined,
  secrets: readonly { which: W; secret: string }[],
): { ok: true; form: SignedForm; which: W } | { ok: false } {
  for (const { which, secret } of secrets) {
    const check = verifyServiceSignature(rawBody, signature, secret);
    if (check.ok) return { ...check, which };
  }
  return { ok: false };
}
