import type { PrismaClient } from "@prisma/client";
import type { Logger } from "../logger.server";
import type { IntakeResult, OrderWebhook } from "../referrals/order-intake";
import type { ShopClient } from "../connection/shop-client.server";
import type { AdminForShop } from "./admin-access.server";

/** What every job handler is given: nothing is imported behind its back. */
export interface JobContext {
  db: PrismaClient;
  logger: Logger;
  clientForShop(shop: string): Promise<ShopClient>;
  /** The shop's Admin GraphQL access (offline session); tests give a fake. */
  adminForShop: AdminForShop;
  now(): Date;
  /** Where orders read from the Admin API are stored: the app's order intake unless given (tests). */
  intake?(hooks: OrderWebhook[]): Promise<IntakeResult[]>;
}
