import { randomBytes } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import { openToken, sealToken, UnreadableSealedValue, type SealContext, type CredentialsKey } from "../../platform/crypto/sealing.server";

/** Where a shop receives the service's webhooks, and the secret that signs them. */
export interface InboundEndpoint {
  endpointId: string;
  secret: string;
}

/**
 * How long the secret a rotation replaces still verifies: time enough to
 * paste the new one into the service's webhook settings. docs/security.md
 * (the inbound secret) and the card say the same.
 */
export const SECRET_OVERLAP_HOURS = 24;
const SECRET_OVERLAP_MS = SECRET_OVERLAP_HOURS * 3600_000;

/** Which of a shop's secrets verified a delivery. */
export type SecretInUse = "current" | "previous";

// The id is a random capability, not the shop domain: the URL tells nobody
// which shop it belongs to, and guessing one is hopeless.
const ENDPOINT_ID = /^[A-Za-z0-9_-]{16,64}$/;

const newEndpointId = () => randomBytes(18).toString("base64url");
const newSecret = () => randomBytes(32).toString("base64url");

const current = (shop: string): SealContext => ({ shop, column: "Shop.inboundWebhookSecretSealed" });
const previous = (shop: string): SealContext => ({ shop, column: "Shop.inboundWebhookPreviousSecretSealed" });

const ENDPOINT_COLUMNS = {
  inboundWebhookId: true,
  inboundWebhookSecretSealed: true,
  inboundWebhookSecretCreatedAt: true,
  inboundWebhookPreviousSecretSealed: true,
  inboundWebhookPreviousSecretExpiresAt: true,
} as const;

interface EndpointRow {
  inboundWebhookId: string | null;
  inboundWebhookSecretSealed: string | null;
  inboundWebhookSecretCreatedAt: Date | null;
  inboundWebhookPreviousSecretSealed: string | null;
  inboundWebhookPreviousSecretExpiresAt: Date | null;
}

export function receivingUrl(appUrl: string, endpointId: string): string {
  return `${appUrl.replace(/\/+$/, "")}/referral-webhooks/${endpointId}`;
}

/**
 * The shop's endpoint row, made on first need; `made` is true only for the
 * one call that made its secret. Shops created before endpoints existed get
 * theirs here. A conditional write keeps two concurrent first calls from
 * handing out two different secrets.
 */
async function endpointRow(db: PrismaClient, shop: string, options: { credentialsKey: CredentialsKey; now?: () => Date }): Promise<{ row: EndpointRow; made: boolean }> {
  const row = await db.shop.findUnique({ where: { shop }, select: ENDPOINT_COLUMNS });
  if (row?.inboundWebhookId && row.inboundWebhookSecretSealed) return { row, made: false };
  const makesSecret = !row?.inboundWebhookSecretSealed;
  const fill = {
    inboundWebhookId: row?.inboundWebhookId ?? newEndpointId(),
    ...(makesSecret
      ? { inboundWebhookSecretSealed: sealToken(newSecret(), options.credentialsKey, current(shop)), inboundWebhookSecretCreatedAt: options.now?.() ?? new Date() }
      : {}),
  };
  if (!row) await db.shop.upsert({ where: { shop }, create: { shop }, update: {} });
  const { count } = await db.shop.updateMany({
    where: { shop, inboundWebhookId: row?.inboundWebhookId ?? null, inboundWebhookSecretSealed: row?.inboundWebhookSecretSealed ?? null },
    data: fill,
  });
  return { row: await db.shop.findUniqueOrThrow({ where: { shop }, select: ENDPOINT_COLUMNS }), made: makesSecret && count === 1 };
}

/** The shop's endpoint id and current secret, made on first need. */
export async function ensureInboundEndpoint(db: PrismaClient, shop: string, options: { credentialsKey: CredentialsKey; now?: () => Date }): Promise<InboundEndpoint> {
  const { row } = await endpointRow(db, shop, options);
  return { endpointId: row.inboundWebhookId!, secret: openToken(row.inboundWebhookSecretSealed!, options.credentialsKey, current(shop)) };
}

/**
 * The shop an endpoint id belongs to, with the secrets that verify its
 * deliveries now: the current one, and the one a rotation replaced until its
 * overlap ends. Null for an id nobody has.
 */
export async function findInboundEndpoint(
  db: PrismaClient,
  endpointId: string,
  options: { credentialsKey: CredentialsKey; now?: () => Date },
): Promise<{ shop: string; secrets: { which: SecretInUse; secret: string }[] } | { shop: string; unreadable: true } | null> {
  if (!ENDPOINT_ID.test(endpointId)) return null;
  const row = await db.shop.findUnique({ where: { inboundWebhookId: endpointId }, select: { shop: true, ...ENDPOINT_COLUMNS } });
  if (!row?.inboundWebhookSecretSealed) return null;
  const opened = readable(row.inboundWebhookSecretSealed, options.credentialsKey, current(row.shop));
  if (opened === null) return { shop: row.shop, unreadable: true };
  const secrets: { which: SecretInUse; secret: string }[] = [{ which: "current", secret: opened }];
  const now = options.now?.() ?? new Date();
  const old = row.inboundWebhookPreviousSecretSealed;
  if (old && row.inboundWebhookPreviousSecretExpiresAt && row.inboundWebhookPreviousSecretExpiresAt > now) {
    try {
      secrets.push({ which: "previous", secret: openToken(old, options.credentialsKey, previous(row.shop)) });
    } catch {
      // Unreadable here (another key): only the current secret verifies.
    }
  }
  return { shop: row.shop, secrets };
}

/** The secret, or null when no key of this process opens it (CREDENTIALS_KEY changed without its predecessor kept for reading). */
function readable(sealed: string, credentialsKey: CredentialsKey, context: SealContext): string | null {
  try {
    return openToken(sealed, credentialsKey, context);
  } catch (error) {
    if (error instanceof UnreadableSealedValue) return null;
    throw error;
  }
}

/** What the admin may know of the shop's endpoint: never a secret, except the one just made. */
export interface EndpointState {
  endpointId: string;
  /** When the current secret was made; null when it was made before the app kept the time. */
  secretMadeAt: Date | null;
  /** Until when the replaced secret still verifies; null when it no longer does. */
  previousValidUntil: Date | null;
  /** The current secret, only for the one call that made it: shown once, then never again. */
  newSecret: string | null;
  /** The stored secret opens with no key of the app's: every delivery is refused until it is rotated or the old key is back. */
  secretUnreadable: boolean;
}

function stateOf(row: EndpointRow, now: Date, newSecret: string | null, secretUnreadable = false): EndpointState {
  const until = row.inboundWebhookPreviousSecretSealed ? row.inboundWebhookPreviousSecretExpiresAt : null;
  return {
    endpointId: row.inboundWebhookId!,
    secretMadeAt: row.inboundWebhookSecretCreatedAt,
    previousValidUntil: until && until > now ? until : null,
    newSecret,
    secretUnreadable,
  };
}

/** The shop's endpoint for its admin pages, made on first need; the secret comes with it that first time only. */
export async function readInboundEndpoint(db: PrismaClient, shop: string, options: { credentialsKey: CredentialsKey; now?: () => Date }): Promise<EndpointState> {
  const { row, made } = await endpointRow(db, shop, options);
  const secret = made ? openToken(row.inboundWebhookSecretSealed!, options.credentialsKey, current(shop)) : null;
  const unreadable = !made && readable(row.inboundWebhookSecretSealed!, options.credentialsKey, current(shop)) === null;
  return stateOf(row, options.now?.() ?? new Date(), secret, unreadable);
}

/**
 * The merchant disconnected the service: its secrets (the current one, and
 * one still in its overlap) stop verifying at once, so whoever holds them can
 * send nothing more. The endpoint id stays; the next need (connecting again,
 * the Settings page) makes a new secret, shown once.
 */
export async function retireInboundSecrets(db: PrismaClient | Prisma.TransactionClient, shop: string): Promise<void> {
  await db.shop.updateMany({
    where: { shop },
    data: { inboundWebhookSecretSealed: null, inboundWebhookSecretCreatedAt: null, inboundWebhookPreviousSecretSealed: null, inboundWebhookPreviousSecretExpiresAt: null },
  });
}

export type RotateResult = { ok: true; endpoint: EndpointState } | { ok: false; reason: "rotated_meanwhile" };

/**
 * Replaces the shop's secret with a new one. The replaced secret keeps
 * verifying for SECRET_OVERLAP_HOURS (sealed in a column of its own), unless
 * `endCurrentNow` (it may have leaked). A secret replaced earlier, still in
 * its overlap, stops at once: only the secret just replaced overlaps. Only
 * the merchant starts this, from the admin.
 */
export async function rotateInboundSecret(
  db: PrismaClient,
  shop: string,
  options: { credentialsKey: CredentialsKey; now?: () => Date; endCurrentNow?: boolean },
): Promise<RotateResult> {
  const { row, made } = await endpointRow(db, shop, options);
  const now = options.now?.() ?? new Date();
  const replaced = row.inboundWebhookSecretSealed!;
  // A secret made by this very call was never shown, so nobody can be using it; one that can't be opened never verifies.
  let keep: string | null = null;
  if (!made && !options.endCurrentNow) {
    try {
      keep = openToken(replaced, options.credentialsKey, current(shop));
    } catch {
      keep = null;
    }
  }
  const secret = newSecret();
  const { count } = await db.shop.updateMany({
    where: { shop, inboundWebhookSecretSealed: replaced },
    data: {
      inboundWebhookSecretSealed: sealToken(secret, options.credentialsKey, current(shop)),
      inboundWebhookSecretCreatedAt: now,
      inboundWebhookPreviousSecretSealed: keep === null ? null : sealToken(keep, options.credentialsKey, previous(shop)),
      inboundWebhookPreviousSecretExpiresAt: keep === null ? null : new Date(now.getTime() + SECRET_OVERLAP_MS),
    },
  });
  if (count !== 1) return { ok: false, reason: "rotated_meanwhile" };
  const fresh = await db.shop.findUniqueOrThrow({ where: { shop }, select: ENDPOINT_COLUMNS });
  return { ok: true, endpoint: stateOf(fresh, now, secret) };
}
