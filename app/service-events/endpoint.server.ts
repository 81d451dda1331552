import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { openToken, sealToken } from "../crypto/sealing.server";

/** Where a shop receives the service's webhooks, and the secret that signs them. */
export interface InboundEndpoint {
  endpointId: string;
  secret: string;
}

// The id is a random capability, not the shop domain: the URL tells nobody
// which shop it belongs to, and guessing one is hopeless.
const ENDPOINT_ID = /^[A-Za-z0-9_-]{16,64}$/;

const newEndpointId = () => randomBytes(18).toString("base64url");
const newSecret = () => randomBytes(32).toString("base64url");

export function receivingUrl(appUrl: string, endpointId: string): string {
  return `${appUrl.replace(/\/+$/, "")}/referral-webhooks/${endpointId}`;
}

/**
 * The shop's endpoint, made on first need. Shops created before endpoints
 * existed get theirs here. A conditional write keeps two concurrent first
 * calls from handing out two different secrets.
 */
export async function ensureInboundEndpoint(
  db: PrismaClient,
  shop: string,
  options: { credentialsKey: string },
): Promise<InboundEndpoint> {
  const select = { inboundWebhookId: true, inboundWebhookSecretSealed: true } as const;
  let row = await db.shop.findUnique({ where: { shop }, select });
  if (!row?.inboundWebhookId || !row.inboundWebhookSecretSealed) {
    const fill = {
      inboundWebhookId: row?.inboundWebhookId ?? newEndpointId(),
      inboundWebhookSecretSealed: row?.inboundWebhookSecretSealed ?? sealToken(newSecret(), options.credentialsKey, { shop, column: "Shop.inboundWebhookSecretSealed" }),
    };
    if (!row) {
      await db.shop.upsert({ where: { shop }, create: { shop, ...fill }, update: {} });
    }
    await db.shop.updateMany({
      where: { shop, inboundWebhookId: row?.inboundWebhookId ?? null, inboundWebhookSecretSealed: row?.inboundWebhookSecretSealed ?? null },
      data: fill,
    });
    row = await db.shop.findUniqueOrThrow({ where: { shop }, select });
  }
  return {
    endpointId: row.inboundWebhookId!,
    secret: openToken(row.inboundWebhookSecretSealed!, options.credentialsKey, { shop, column: "Shop.inboundWebhookSecretSealed" }),
  };
}

/** The shop an endpoint id belongs to, with its secret; null for an id nobody has. */
export async function findInboundEndpoint(
  db: PrismaClient,
  endpointId: string,
  options: { credentialsKey: string },
): Promise<{ shop: string; secret: string } | null> {
  if (!ENDPOINT_ID.test(endpointId)) return null;
  const row = await db.shop.findUnique({
    where: { inboundWebhookId: endpointId },
    select: { shop: true, inboundWebhookSecretSealed: true },
  });
  if (!row?.inboundWebhookSecretSealed) return null;
  return { shop: row.shop, secret: openToken(row.inboundWebhookSecretSealed, options.credentialsKey, { shop: row.shop, column: "Shop.inboundWebhookSecretSealed" }) };
}

/** What ServiceWebhookCard shows: the shop's receiving URL and secret (made on first need). */
export async function serviceWebhookCardData(
  db: PrismaClient,
  shop: string,
  options: { appUrl: string; credentialsKey: string },
): Promise<{ url: string; secret: string }> {
  const endpoint = await ensureInboundEndpoint(db, shop, options);
  return { url: receivingUrl(options.appUrl, endpoint.endpointId), secret: endpoint.secret };
}
