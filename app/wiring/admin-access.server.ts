import type { PrismaClient } from "@prisma/client";
import { getEnv } from "../env.server";
import type { AdminForShop } from "../shopify-admin/admin-access";
import type { AdminGraphql } from "../shopify-admin/admin-graphql.server";

export function shopifyAdminForShop(db: PrismaClient): AdminForShop {
  return async (shop) => {
    const session = await db.session.findFirst({ where: { shop, isOnline: false }, select: { id: true } });
    if (!session) {
      return { ok: false, reason: "The app is not installed on the shop (no access token), so it cannot change anything in Shopify." };
    }
    const standIn = getEnv().SHOPIFY_ADMIN_API_ORIGIN;
    if (standIn) return { ok: true, admin: await adminAtOrigin(db, standIn, session.id) };
    // Imported here so that the job modules load without the Shopify app config.
    const { unauthenticated } = await import("../shopify.server");
    const { admin } = await unauthenticated.admin(shop);
    return { ok: true, admin: { graphql: (query, options) => admin.graphql(query, options) } };
  };
}

/**
 * Development only (SHOPIFY_ADMIN_API_ORIGIN): the Admin GraphQL API of a
 * local stand-in, called as Shopify is, with the offline session's token.
 */
async function adminAtOrigin(db: PrismaClient, origin: string, sessionId: string): Promise<AdminGraphql> {
  const { API_VERSION } = await import("../shopify.server");
  const session = await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { accessToken: true } });
  return {
    graphql: (query, options) =>
      fetch(`${origin}/admin/api/${API_VERSION}/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": session.accessToken },
        body: JSON.stringify({ query, variables: options?.variables ?? {} }),
      }),
  };
}
