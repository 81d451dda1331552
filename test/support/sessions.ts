import prisma from "../../app/wiring/db.server";
import { DEFAULT_SCOPES } from "../../app/wiring/env.server";
import { TEST_SHOP } from "./shopify-requests";

/** Stores an offline session for a shop, as OAuth would have (once; calling again changes nothing). */
export async function installShop(shop = TEST_SHOP): Promise<void> {
  const data = { shop, state: "installed", isOnline: false, scope: DEFAULT_SCOPES, accessToken: "shpat_test_token" };
  await prisma.session.upsert({ where: { id: `offline_${shop}` }, create: { id: `offline_${shop}`, ...data }, update: {} });
}
