import prisma from "../db.server";
import { getEnv, serviceNetwork } from "../env.server";
import { logger } from "../logger.server";
import { referralClientForShop } from "../connection/shop-client.server";
import { shopifyAdminForShop } from "./admin-access.server";
import { answeringWebhooks } from "../webhooks/acknowledgements";
import { DEFAULT_BACKOFF } from "../queue/backoff";
import type { JobContext } from "./job-context";
import type { WorkerOptions } from "../queue/worker.server";

/** The job context of this app process: its database, logger and credentials key. */
export function appJobContext(): JobContext {
  const { CREDENTIALS_KEY, SERVICE_TIMEOUT_MS } = getEnv();
  return {
    db: prisma,
    logger,
    clientForShop: (shop) => referralClientForShop(prisma, shop, { credentialsKey: CREDENTIALS_KEY, timeoutMs: SERVICE_TIMEOUT_MS, network: serviceNetwork() }),
    adminForShop: shopifyAdminForShop(prisma),
    now: () => new Date(),
  };
}

/** Worker settings from the environment (WORKER_CONCURRENCY, SHOP_CONCURRENCY, JOB_RETRY_BASE_MS, JOB_LEASE_MS). */
export function appWorkerOptions(): WorkerOptions {
  const env = getEnv();
  return {
    concurrency: env.WORKER_CONCURRENCY,
    perShop: env.SHOP_CONCURRENCY,
    backoff: { ...DEFAULT_BACKOFF, baseMs: env.JOB_RETRY_BASE_MS },
    leaseMs: env.JOB_LEASE_MS,
    shouldYield: () => answeringWebhooks(),
  };
}
