import type { PrismaClient } from "@prisma/client";
import type { FetchLike, ServiceNetworkPolicy } from "../../platform/referral-api";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import type { CredentialsKey } from "../../platform/crypto/sealing.server";

/** The pino-like subset the admin logs to. */
export interface AdminLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** What the admin domain needs; routes build it once with appAdminContext(), tests build their own. */
export interface AdminContext {
  db: PrismaClient;
  /** CREDENTIALS_KEY: seals and opens the service token. */
  credentialsKey: CredentialsKey;
  /** How long a page waits for the referral service (default ADMIN_TIMEOUT_MS). */
  timeoutMs?: number;
  fetch?: FetchLike;
  /** Which addresses the service may be at (default: public https only). */
  network?: ServiceNetworkPolicy;
  now?: () => Date;
  logger?: AdminLogger;
  /** How often a shop's orders are reconciled (RECONCILE_INTERVAL_MS): connecting schedules the first pass. */
  reconcileIntervalMs?: number;
  /** SHOPIFY_APP_URL: where the web pixel sends its signals, where the service's webhooks come. */
  appUrl?: string;
  /** The job kinds that call the referral service (the job registry's REFERRAL_SERVICE group): disconnecting holds them. */
  serviceJobKinds?: readonly string[];
  /** The shop's offline Admin API access, for checks made outside a merchant's request. */
  adminForShop?: AdminForShop;
}

export const nowOf = (ctx: Pick<AdminContext, "now">): Date => (ctx.now ? ctx.now() : new Date());
