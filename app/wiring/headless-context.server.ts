import prisma from "./db.server";
import { getEnv } from "./env.server";
import { logger } from "../platform/logger/logger.server";
import { customerTokenVerifier } from "../platform/shopify-customer-account/customer-token.server";
import { liveOfferCampaigns } from "../domains/offers";
import { loadShareLinks, shareLinksResponse } from "../domains/storefront";
import { offlineCustomerLookup } from "./session-token-links.server";
import { commaList } from "../platform/text/comma-list";
import { appShareLinksDeps } from "./storefront-context.server";

// Typed by what it is: the wiring imports no entry module (the route hands this to
// app/entry/storefront/headless-endpoint.server.ts, whose HeadlessEndpointDeps it meets).
const newDeps = () => ({
  async isInstalled(shop: string) {
    const row = await prisma.shop.findUnique({ where: { shop }, select: { uninstalledAt: true } });
    return !!row && !row.uninstalledAt;
  },
  // Production refuses SHOPIFY_CUSTOMER_ACCOUNT_API_ORIGIN (env.server.ts): there it is always the shop.
  tokenOwner: customerTokenVerifier({ standInOrigin: () => getEnv().SHOPIFY_CUSTOMER_ACCOUNT_API_ORIGIN }),
  async shareLinks(shop: string, customerId: string) {
    const answer = await loadShareLinks(appShareLinksDeps(), { shop, customerId, lookupCustomer: await offlineCustomerLookup(shop), surface: "headless" });
    return shareLinksResponse(answer);
  },
  offerCampaigns: async (shop: string) => commaList(await liveOfferCampaigns(prisma, shop)),
  logger,
});

let deps: ReturnType<typeof newDeps> | undefined;

/** The headless endpoints' dependencies, made once per app process (the token verifier keeps its cache). */
export function headlessEndpointDeps() {
  deps ??= newDeps();
  return deps;
}
