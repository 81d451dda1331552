import prisma from "./db.server";
import { credentialsKeys, getEnv, serviceNetwork } from "./env.server";
import { logger } from "../platform/logger/logger.server";
import { REFERRAL_SERVICE } from "../domains/connection";
import { shopifyAdminForShop } from "./admin-access.server";
import { APP_JOBS } from "./jobs.server";

/** The admin context of this app process: everything an admin page may need is there. */
export type AppAdminContext = ReturnType<typeof appAdminContext>;

export function appAdminContext() {
  const env = getEnv();
  return {
    db: prisma,
    credentialsKey: credentialsKeys(env),
    network: serviceNetwork(env),
    logger,
    reconcileIntervalMs: env.RECONCILE_INTERVAL_MS,
    appUrl: env.SHOPIFY_APP_URL,
    adminForShop: shopifyAdminForShop(prisma),
    serviceJobKinds: APP_JOBS.kindsSharing(REFERRAL_SERVICE),
  };
}
