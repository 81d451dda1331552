import type { PrismaClient } from "@prisma/client";
import { isLegacySealed, isSealed, openLegacy, sealToken, type SealContext } from "./sealing.server";

/** The value sealed again for its place, or null when the key cannot open it (it stays, unreadable, as it was). */
function resealed(old: string, base64Key: string, context: SealContext): string | null {
  try {
    return sealToken(openLegacy(old, base64Key), base64Key, context);
  } catch {
    return null;
  }
}

/**
 * The data migration of sealed values from v1 to v2 (credentials.server.ts):
 * every v1 value is opened with the raw key and sealed again for its shop and
 * column. Conditional writes make it safe to run in several processes at
 * once; it runs whenever the app starts and does nothing once all are v2.
 */
export async function resealLegacyValues(db: PrismaClient, base64Key: string): Promise<number> {
  let count = 0;
  const shops = await db.shop.findMany({
    where: { OR: [{ serviceTokenSealed: { startsWith: "v1." } }, { inboundWebhookSecretSealed: { startsWith: "v1." } }] },
    select: { shop: true, serviceTokenSealed: true, inboundWebhookSecretSealed: true },
  });
  for (const row of shops) {
    for (const column of ["serviceTokenSealed", "inboundWebhookSecretSealed"] as const) {
      const old = row[column];
      if (!isLegacySealed(old)) continue;
      const fresh = resealed(old, base64Key, { shop: row.shop, column: `Shop.${column}` });
      if (!fresh) continue;
      const { count: done } = await db.shop.updateMany({ where: { shop: row.shop, [column]: old }, data: { [column]: fresh } });
      count += done;
    }
  }
  const logs = await db.redactionLog.findMany({ where: { pendingEmailSealed: { startsWith: "v1." } }, select: { id: true, shop: true, pendingEmailSealed: true } });
  for (const log of logs) {
    const fresh = resealed(log.pendingEmailSealed!, base64Key, { shop: log.shop, column: "RedactionLog.pendingEmailSealed" });
    if (!fresh) continue;
    const { count: done } = await db.redactionLog.updateMany({ where: { id: log.id, pendingEmailSealed: log.pendingEmailSealed }, data: { pendingEmailSealed: fresh } });
    count += done;
  }
  return count;
}

/**
 * Shopify's tokens stored in clear (sessions from before they were sealed,
 * docs/decisions/015) sealed for their shop and column. Like the re-seal
 * above it runs whenever the app starts, its writes conditional on the value
 * read, and does nothing once every row is sealed. How many values it sealed.
 */
export async function sealClearSessionTokens(db: PrismaClient, base64Key: string): Promise<number> {
  const rows = await db.session.findMany({
    where: { OR: [{ NOT: { accessToken: { startsWith: "v2." } } }, { AND: [{ refreshToken: { not: null } }, { NOT: { refreshToken: { startsWith: "v2." } } }] }] },
    select: { id: true, shop: true, accessToken: true, refreshToken: true },
  });
  let count = 0;
  for (const row of rows) {
    for (const column of ["accessToken", "refreshToken"] as const) {
      const clear = row[column];
      // An empty access token is the library's placeholder for none: nothing to seal.
      if (!clear || isSealed(clear)) continue;
      const sealed = sealToken(clear, base64Key, { shop: row.shop, column: `Session.${column}` });
      const { count: done } = await db.session.updateMany({ where: { id: row.id, [column]: clear }, data: { [column]: sealed } });
      count += done;
    }
  }
  return count;
}
