import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// Format of a sealed token: "v1.<iv>.<tag>.<ciphertext>", each part base64url.
const VERSION = "v1";

function keyBytes(base64Key: string): Buffer {
  const key = Buffer.from(base64Key, "base64");
  if (key.length !== 32) throw new Error("The credentials key must be 32 bytes");
  return key;
}

/** Encrypts a service token with AES-256-GCM for storage at rest. */
export function sealToken(token: string, base64Key: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyBytes(base64Key), iv);
  const ciphertext = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** Decrypts a sealed token; throws when it was sealed with another key or tampered with. */
export function openToken(sealed: string, base64Key: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
    throw new Error("The stored service token is not in a known format");
  }
  const decipher = createDecipheriv("aes-256-gcm", keyBytes(base64Key), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("The stored service token cannot be decrypted with CREDENTIALS_KEY (was the key changed?)");
  }
}
