import type { Prisma, PrismaClient } from "@prisma/client";

// Shop.connectionStatus is written here and nowhere else:
// not_connected → connected (the merchant's credentials checked and saved),
// connected → broken (the service refused them), broken → connected (new ones saved),
// connected or broken → not_connected (the merchant disconnected: the token is forgotten).

export type ConnectionStatus = "not_connected" | "connected" | "broken";

export interface SavedConnection {
  baseUrl: string;
  username: string;
  tokenSealed: string;
  companyName: string;
}

/** Credentials that the service has just accepted: the shop is connected. */
export async function saveConnection(db: PrismaClient, shop: string, saved: SavedConnection, now: Date): Promise<void> {
  const data = {
    serviceBaseUrl: saved.baseUrl,
    serviceUsername: saved.username,
    serviceTokenSealed: saved.tokenSealed,
    companyName: saved.companyName,
    connectionStatus: "connected",
    connectionError: null,
    connectionCheckedAt: now,
  };
  await db.shop.upsert({ where: { shop }, create: { shop, ...data }, update: data });
}

/** The service refused the saved credentials: a connected shop is marked broken, with the merchant's words for it. */
export async function markConnectionBroken(db: PrismaClient, shop: string, reason: string, now: Date): Promise<void> {
  await db.shop.updateMany({
    where: { shop, connectionStatus: "connected" },
    data: { connectionStatus: "broken", connectionError: reason, connectionCheckedAt: now },
  });
}

/**
 * The merchant disconnected: the token is forgotten, and the shop is not
 * connected. The address and username stay (they are not secrets) so the
 * form offers them again; the saved token is never sent anywhere again. The
 * check time moves, so every process forgets what the former connection said
 * of the shop's codes (connectionIdentity).
 */
export async function forgetConnection(db: PrismaClient | Prisma.TransactionClient, shop: string, now: Date): Promise<void> {
  await db.shop.updateMany({
    where: { shop },
    data: { serviceTokenSealed: null, companyName: null, connectionStatus: "not_connected", connectionError: null, connectionCheckedAt: now },
  });
}
