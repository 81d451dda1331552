import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// A sealed value: "v2.<iv>.<tag>.<ciphertext>", each part base64url.
// AES-256-GCM with a key derived from CREDENTIALS_KEY for sealing only
// (HKDF-SHA256), the full 16-byte tag, and the shop and column as additional
// authenticated data: a value copied to another shop's row or another column
// does not open. "v1" values (the raw key, no AAD) are read only to re-seal
// them (resealLegacyValues, run when the app starts).
const VERSION = "v2";
const LEGACY = "v1";
const TAG_BYTES = 16;

/** Where a sealed value lives; it opens only there. */
export interface SealContext {
  shop: string;
  column:
    | "Shop.serviceTokenSealed"
    | "Shop.inboundWebhookSecretSealed"
    | "Shop.inboundWebhookPreviousSecretSealed"
    | "RedactionLog.pendingEmailSealed"
    | "Job.payload:privacy.customer-redact"
    | "Session.accessToken"
    | "Session.refreshToken";
}

/**
 * CREDENTIALS_KEY, or during a rotation the key ring: values are sealed with
 * `current` only, and opened with it or any of `previous` (the keys they may
 * still be sealed with until `npm run credentials:reseal` has run).
 */
export type CredentialsKey = string | { current: string; previous: readonly string[] };

/** The key new values are sealed with. */
export const currentKeyOf = (key: CredentialsKey): string => (typeof key === "string" ? key : key.current);
const keysOf = (key: CredentialsKey): string[] => (typeof key === "string" ? [key] : [key.current, ...key.previous]);

/** A sealed value none of the keys opens (the key was changed without keeping the old one for reading, or the value moved). */
export class UnreadableSealedValue extends Error {
  constructor() {
    super("The stored value cannot be decrypted with CREDENTIALS_KEY (or CREDENTIALS_KEY_PREVIOUS) here (was the key changed, or the value moved?)");
    this.name = "UnreadableSealedValue";
  }
}

function masterKey(base64Key: string): Buffer {
  const key = Buffer.from(base64Key, "base64");
  if (key.length !== 32) throw new Error("The credentials key must be 32 bytes");
  return key;
}

const derivedKeys = new Map<string, Buffer>();

/** A key of its own for each use of CREDENTIALS_KEY: "seal" (encryption at rest), "hash" (keyed hashes of redacted people) and "log" (the pseudonyms of log lines). */
export function derivedKey(credentialsKey: CredentialsKey, use: "seal" | "hash" | "log"): Buffer {
  const base64Key = currentKeyOf(credentialsKey);
  // Derived once per key and use: every order's job opens its shop's sealed token.
  const name = `${use}\n${base64Key}`;
  let key = derivedKeys.get(name);
  if (!key) derivedKeys.set(name, (key = Buffer.from(hkdfSync("sha256", masterKey(base64Key), Buffer.alloc(0), `referral-bridge/${use}/v1`, 32))));
  return key;
}

const aad = ({ shop, column }: SealContext) => Buffer.from(`referral-bridge\n${column}\n${shop}`, "utf8");

/** Encrypts a secret (a service token, a webhook secret, an email waiting for erasure) for storage at rest. */
export function sealToken(value: string, base64Key: CredentialsKey, context: SealContext): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey(base64Key, "seal"), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(context));
  const ciphertext = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

function open(key: Buffer, iv: string, tag: string, ciphertext: string, context: SealContext | null): string {
  const tagBytes = Buffer.from(tag, "base64url");
  if (tagBytes.length !== TAG_BYTES) throw new Error("The stored value's authentication tag is not 16 bytes");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES });
  if (context) decipher.setAAD(aad(context));
  decipher.setAuthTag(tagBytes);
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new UnreadableSealedValue();
  }
}

/**
 * A value sealed for this shop and column, and whether it was sealed with the
 * current key; throws UnreadableSealedValue when no key opens it (or the
 * place or a byte differs). GCM's tag tells a wrong key apart, so trying each
 * key in turn is safe.
 */
export function openWithKeys(sealed: string, credentialsKey: CredentialsKey, context: SealContext): { value: string; current: boolean } {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("The stored value is not in a known format");
  const keys = keysOf(credentialsKey);
  for (const [index, key] of keys.entries()) {
    try {
      return { value: open(derivedKey(key, "seal"), iv, tag, ciphertext, context), current: index === 0 };
    } catch (error) {
      if (!(error instanceof UnreadableSealedValue) || index === keys.length - 1) throw error;
    }
  }
  throw new UnreadableSealedValue();
}

/** Decrypts a value sealed for this shop and column; throws when no key opens it, or the place or a byte differs. */
export function openToken(sealed: string, credentialsKey: CredentialsKey, context: SealContext): string {
  return openWithKeys(sealed, credentialsKey, context).value;
}

/** A "v1" value's plain text (raw key, no AAD, full tag required); only for re-sealing. */
export function openLegacy(sealed: string, base64Key: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== LEGACY || !iv || !tag || ciphertext === undefined) throw new Error("Not a v1 sealed value");
  return open(masterKey(base64Key), iv, tag, ciphertext, null);
}

/** Whether a stored value is sealed in the current format (a Shopify token in clear never starts so: shpat_, shpua_, shprt_...). */
export const isSealed = (stored: string | null | undefined): stored is string => Boolean(stored?.startsWith(`${VERSION}.`));

export const isLegacySealed = (sealed: string | null | undefined): sealed is string => Boolean(sealed?.startsWith(`${LEGACY}.`));
