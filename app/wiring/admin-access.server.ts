import type { PrismaClient } from "@prisma/client";
import type { AdminForShop } from "../platform/shopify-admin/admin-access";
import { boundAdminCalls } from "../platform/shopify-admin/bounded-admin";

/**
 * The Admin API of a shop, for the calls the app makes on its own (jobs,
 * admin pages' background reads): the offline token made ready first
 * (refreshed when it is about to expire, see shopify-admin/offline-token.server.ts),
 * then Shopify's client, each call bounded (bounded-admin.ts). Not installed, or a token Shopify refuses for good:
 * why there is no client. In development SHOPIFY_ADMIN_API_ORIGIN sends the
 * library's calls to the local stand-in (shopify.server.ts).
 */
export function shopifyAdminForShop(db: PrismaClient): AdminForShop {
  return async (shop) => {
    const session = await db.session.findFirst({ where: { shop, isOnline: false }, select: { id: true } });
    if (!session) return { ok: false, reason: NOT_INSTALLED };
    // Imported here so that the job modules load without the Shopify app config.
    const { readyOfflineToken, unauthenticated } = await import("./shopify.server");
    const token = await readyOfflineToken(shop, session.id);
    if (!token.ok) return { ok: false, reason: token.cause === "not_installed" ? NOT_INSTALLED : token.reason };
    const { admin } = await unauthenticated.admin(shop);
    return { ok: true, admin: boundAdminCalls({ graphql: (query, options) => admin.graphql(query, options) }) };
  };
}

export const NOT_INSTALLED = "The app is not installed on the shop (no access token), so it cannot change anything in Shopify.";
