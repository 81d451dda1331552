import prisma from "../db.server";
import { getEnv } from "../env.server";
import { logger } from "../logger.server";
import { referralClientForShop } from "../referrals/shop-client.server";
import type { JobContext } from "./context";

/** The job context of this app process: its database, logger and credentials key. */
export function appJobContext(): JobContext {
  const { CREDENTIALS_KEY } = getEnv();
  return {
    db: prisma,
    logger,
    clientForShop: (shop) => referralClientForShop(prisma, shop, { credentialsKey: CREDENTIALS_KEY }),
    now: () => new Date(),
  };
}
