import type { ShopClient } from "../connection";
import type { QueueContext } from "../../platform/queue/registry";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import type { CodeDirectory } from "./code-directory.server";

/** What the order jobs are given. */
export interface OrderJobContext extends QueueContext {
  clientForShop(shop: string): Promise<ShopClient>;
  /** What the service said of codes lately (one directory per process). */
  codes: CodeDirectory;
  /** The shop's Admin API, for a subscription order's selling plan (selling-plan.server.ts). */
  adminForShop?: AdminForShop;
  /** The app's secret: it keys the pseudonyms of coupon buyers (leaked-codes.server.ts). */
  appSecret: string;
}
