import type { PrismaClient, Shop } from "@prisma/client";
import { createReferralClient, type ReferralClient, type ServiceNetworkPolicy } from "../referral-api";
import { openToken } from "../crypto/sealing.server";

export type ShopClient =
  /** `shop`: the shop's row as it was read, for a caller that needs its settings too (one read, not two). */
  | { ok: true; client: ReferralClient; shop?: Shop }
  | { ok: false; reason: string };

export interface ShopClientOptions {
  credentialsKey: string;
  timeoutMs?: number;
  network: ServiceNetworkPolicy;
}

/** The referral client of a connected shop, or why there is none. */
export async function referralClientForShop(
  db: PrismaClient,
  shop: string,
  options: ShopClientOptions,
): Promise<ShopClient> {
  const row = await db.shop.findUnique({ where: { shop } });
  if (!row?.serviceBaseUrl || !row.serviceUsername || !row.serviceTokenSealed) {
    return { ok: false, reason: "The shop is not connected to the referral service yet (Settings)." };
  }
  if (row.connectionStatus === "broken") {
    return { ok: false, reason: row.connectionError ?? "The shop's referral service credentials need to be renewed." };
  }
  return {
    ok: true,
    shop: row,
    client: createReferralClient({
      baseUrl: row.serviceBaseUrl,
      username: row.serviceUsername,
      token: openToken(row.serviceTokenSealed, options.credentialsKey, { shop, column: "Shop.serviceTokenSealed" }),
      timeoutMs: options.timeoutMs,
      network: options.network,
    }),
  };
}
