import type { PrismaClient } from "@prisma/client";
import { realSleep, type Sleep } from "../http/sleep";
import type { AdminForShop } from "./admin-access";
import { adminCall, type AdminCallDeps } from "./admin-call.server";
import { describeThrown } from "./admin-graphql.server";

const ACCESS_SCOPES = `#graphql
query ReferralBridgeAccessScopes { currentAppInstallation { accessScopes { handle } } }`;

/** The scopes the shop has granted the app now, as Shopify knows them (required and optional). */
export async function readGrantedScopes(deps: AdminCallDeps): Promise<string[]> {
  const data = await adminCall<{ currentAppInstallation: { accessScopes: { handle: string }[] } }>(deps, ACCESS_SCOPES);
  return data.currentAppInstallation.accessScopes.map((s) => s.handle);
}

/** Keeps the stored offline session's scope in step with what the merchant granted (Shopify's scope checks read it). */
export async function storeGrantedScopes(db: PrismaClient, shop: string, scopes: readonly string[]): Promise<void> {
  await db.session.updateMany({ where: { shop, isOnline: false }, data: { scope: scopes.join(",") } });
}

export type GrantedScopes = { ok: true; scopes: string[] } | { ok: false; reason: string };

/**
 * What the shop has granted, asked of Shopify now: right after the merchant
 * grants a scope in the admin, app/scopes_update may not have arrived yet.
 * The stored session is brought in step on the way.
 */
export async function liveGrantedScopes(db: PrismaClient, adminForShop: AdminForShop, shop: string, sleep: Sleep = realSleep): Promise<GrantedScopes> {
  const access = await adminForShop(shop);
  if (!access.ok) return access;
  try {
    const scopes = await readGrantedScopes({ admin: access.admin, sleep });
    await storeGrantedScopes(db, shop, scopes);
    return { ok: true, scopes };
  } catch (error) {
    return { ok: false, reason: `Shopify could not be asked which permissions the app has: ${describeThrown(error).message}` };
  }
}
