import prisma from "./db.server";
import { databaseKind } from "../platform/db/adapter.server";
import { credentialsKeys, getEnv, serviceNetwork } from "./env.server";
import { logger } from "../platform/logger/logger.server";
import { adminJobs, type AdminJobContext } from "../domains/commissions";
import { markConnectionBroken } from "../domains/connection";
import { CREDENTIALS_REFUSED } from "../domains/connection";
import { connectionIdentity, shopClient, type ShopClient } from "../domains/connection";
import { flowTriggerJobs, type FlowTriggerJobContext } from "../domains/flow-triggers";
import { customerMetafieldJobs, type CustomerMetafieldJobContext } from "../domains/customer-metafields";
import { flowActionJobs, type FlowActionJobContext } from "../domains/flow-actions";
import { offerJobs, type OfferJobContext } from "../domains/offers";
import { orderSyncJobs, type OrderSyncJobContext } from "../domains/order-sync";
import { SERVICE_EVENT_JOB } from "../domains/service-events";
import { privacyJobs, type PrivacyJobContext } from "../domains/privacy";
import { DEFAULT_BACKOFF } from "../platform/queue/backoff";
import { DEFAULT_WORKER_CONCURRENCY } from "../platform/queue/defaults";
import { createJobRegistry } from "../platform/queue/registry";
import { createWorker, type Worker, type WorkerOptions } from "../platform/queue/worker.server";
import { CodeDirectory } from "../domains/referrals";
import { referralJobs, type OrderJobContext } from "../domains/referrals";
import { serviceEventJobs, type ServiceEventJobContext } from "../domains/service-events";
import { shopifyAdminForShop } from "./admin-access.server";
import { storeReadOrders } from "./order-intake.server";

/** What the app's jobs are given: every domain's context at once. */
export type AppJobContext = OrderJobContext & OfferJobContext & OrderSyncJobContext & PrivacyJobContext & ServiceEventJobContext & AdminJobContext & FlowTriggerJobContext & CustomerMetafieldJobContext & FlowActionJobContext;

/** Every kind of job the app runs, each defined by the domain it belongs to. */
export const APP_JOBS = createJobRegistry<AppJobContext>([
  ...referralJobs,
  ...offerJobs,
  ...orderSyncJobs,
  ...privacyJobs,
  ...serviceEventJobs,
  ...adminJobs,
  ...flowTriggerJobs,
  ...customerMetafieldJobs,
  ...flowActionJobs,
]);

declare global {
  var __referralBridgeCodes: CodeDirectory | undefined;
}

/** The job context of this app process; tests replace what they need (a clock, a quiet logger, a short timeout). */
export function appJobContext(overrides: Partial<AppJobContext> = {}): AppJobContext {
  const env = getEnv();
  const db = overrides.db ?? prisma;
  const codes = overrides.codes ?? (globalThis.__referralBridgeCodes ??= new CodeDirectory());
  const clientOf =
    overrides.clientForShop ?? ((shop: string) => shopClient(db, shop, { credentialsKey: credentialsKeys(env), timeoutMs: env.SERVICE_TIMEOUT_MS, network: serviceNetwork(env) }));
  return {
    db,
    logger,
    now: () => new Date(),
    adminForShop: shopifyAdminForShop(db),
    intake: storeReadOrders,
    credentialsKey: credentialsKeys(env),
    serviceEventJobKind: SERVICE_EVENT_JOB.name,
    appSecret: env.SHOPIFY_API_SECRET,
    reconcile: { intervalMs: env.RECONCILE_INTERVAL_MS, overlapMs: env.RECONCILE_OVERLAP_MS },
    ...overrides,
    codes,
    clientForShop: forgettingOnReconnect(clientOf, codes),
  };
}

/** A shop's client, and what the service said of its codes forgotten when the shop was connected anew since (in any process). */
function forgettingOnReconnect(clientOf: (shop: string) => Promise<ShopClient>, codes: CodeDirectory) {
  return async (shop: string): Promise<ShopClient> => {
    const connection = await clientOf(shop);
    if (connection.ok && connection.shop) codes.useConnection(shop, connectionIdentity(connection.shop));
    return connection;
  };
}

/** Worker settings from the environment (WORKER_CONCURRENCY, SHOP_CONCURRENCY, JOB_RETRY_BASE_MS, JOB_LEASE_MS), for a worker process or the app's own thread. */
export function appWorkerOptions(host: keyof typeof DEFAULT_WORKER_CONCURRENCY): Omit<WorkerOptions, "database"> {
  const env = getEnv();
  return {
    concurrency: env.WORKER_CONCURRENCY ?? DEFAULT_WORKER_CONCURRENCY[host],
    perShop: env.SHOP_CONCURRENCY,
    backoff: { ...DEFAULT_BACKOFF, baseMs: env.JOB_RETRY_BASE_MS },
    leaseMs: env.JOB_LEASE_MS,
  };
}

/**
 * A worker over the app's jobs and database. A pause for refused
 * credentials also marks the shop's connection broken, so every page
 * points the merchant to Settings.
 */
export function appWorker(ctx: AppJobContext, options: Omit<WorkerOptions, "database"> = {}): Worker {
  return createWorker(ctx, APP_JOBS, {
    database: databaseKind(getEnv().DATABASE_URL),
    onShopPaused: async (shop, outcome, now) => {
      if (outcome.cause === CREDENTIALS_REFUSED) await markConnectionBroken(ctx.db, shop, outcome.reason, now);
    },
    ...options,
  });
}
