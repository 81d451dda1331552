import prisma from "../../app/db.server";
import { DEFAULT_SCOPES } from "../../app/env.server";
import { TEST_SHOP } from "./shopify-requests";

/** Stores an offline session for a shop, as OAuth would have. */
export async function installShop(shop = TEST_SHOP): Promise<void> {
  await prisma.session.create({
    data: {
      id: `offline_${shop}`,
      shop,
      state: "installed",
      isOnline: false,
      scope: DEFAULT_SCOPES,
      accessToken: "shpat_test_token",
    },
  });
}
