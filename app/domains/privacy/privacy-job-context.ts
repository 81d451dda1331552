import type { ShopClient } from "../connection";
import type { QueueContext } from "../../platform/queue/registry";
import type { CredentialsKey } from "../../platform/crypto/sealing.server";

/** What the privacy jobs are given. */
export interface PrivacyJobContext extends QueueContext {
  clientForShop(shop: string): Promise<ShopClient>;
  /** CREDENTIALS_KEY: opens the sealed email of a customer waiting for erasure. */
  credentialsKey: CredentialsKey;
  /** The kind of the jobs that carry a service event: a redacted customer's go with them. */
  serviceEventJobKind: string;
  /** SHOPIFY_API_SECRET: keys the hash in an ambassador's enrolment trigger key, which a redaction deletes. */
  appSecret: string;
}
