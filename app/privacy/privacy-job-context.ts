import type { ShopClient } from "../connection/shop-client.server";
import type { QueueContext } from "../queue/registry";

/** What the privacy jobs are given. */
export interface PrivacyJobContext extends QueueContext {
  clientForShop(shop: string): Promise<ShopClient>;
  /** CREDENTIALS_KEY: opens the sealed email of a customer waiting for erasure. */
  credentialsKey: string;
}
