import prisma from "./db.server";
import { logger } from "../platform/logger/logger.server";
import { shopHasSession } from "./order-intake.server";
import { offlineCustomerLookup } from "./session-token-links.server";
import { appShareLinksDeps } from "./storefront-context.server";

/** The POS extension's endpoints' dependencies in this app process: the share links' (their caches and service client), the shop check. */
export function posEndpointDeps() {
  const shareLinks = appShareLinksDeps();
  return {
    counter: { db: prisma, clientForShop: shareLinks.clientForShop },
    shareLinks,
    shopHasSession,
    customerLookup: offlineCustomerLookup,
    logger,
  };
}
