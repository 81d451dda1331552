import type { PrismaClient } from "@prisma/client";
import type { Logger } from "../logger.server";
import type { ShopClient } from "../referrals/shop-client.server";

/** What every job handler is given: nothing is imported behind its back. */
export interface JobContext {
  db: PrismaClient;
  logger: Logger;
  clientForShop(shop: string): Promise<ShopClient>;
  now(): Date;
}
