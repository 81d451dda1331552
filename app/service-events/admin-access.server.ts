import type { PrismaClient } from "@prisma/client";
import type { AdminGraphql } from "./admin-graphql.server";

export type AdminConnection = { ok: true; admin: AdminGraphql } | { ok: false; reason: string };

/** Gives a shop's Admin GraphQL client (offline token), or why there is none. */
export type AdminForShop = (shop: string) => Promise<AdminConnection>;

export function shopifyAdminForShop(db: PrismaClient): AdminForShop {
  return async (shop) => {
    const session = await db.session.findFirst({ where: { shop, isOnline: false }, select: { id: true } });
    if (!session) {
      return { ok: false, reason: "The app is not installed on the shop (no access token), so it cannot change anything in Shopify." };
    }
    // Imported here so that the job modules load without the Shopify app config.
    const { unauthenticated } = await import("../shopify.server");
    const { admin } = await unauthenticated.admin(shop);
    return { ok: true, admin: { graphql: (query, options) => admin.graphql(query, options) } };
  };
}
