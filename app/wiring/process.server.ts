import prisma from "./db.server";
import { getEnv } from "./env.server";
import { webhooksAnswered } from "../entry/webhooks/acknowledgements";
import { startInProcessWorker, stopInProcessWorker } from "./in-process-worker.server";
import { startJobWorker } from "./job-worker.server";
import { hearWebhookBursts } from "./webhook-bursts.server";
import { databaseKind } from "../platform/db/adapter.server";
import { logger } from "../platform/logger/logger.server";
import { scheduleAllReconciles } from "../domains/order-sync";
import { schedulePurge } from "../domains/privacy";
import { rekeyEnrolmentTriggers } from "../domains/flow-triggers";
import { orderIntake, orderWebhooks } from "./order-intake.server";
import { resealLegacyValues, sealClearSessionTokens } from "../platform/crypto/reseal.server";
import { logStrayRejections } from "./stray-rejections.server";
import { handleInstallsWith } from "./shopify.server";
import { finishInterruptedInstalls, handleAppInstalled } from "./install.server";

// An app process's life, driven by server.mjs through the build's entry:
// what is ready before it listens, and how it stops.

let started: Promise<void> | undefined;

/** Before the first request: the order intake warmed up, the in-process worker running. Once per process. */
export function startAppProcess(): Promise<void> {
  started ??= (async () => {
    // Before any request can authenticate.
    handleInstallsWith((shop) => handleAppInstalled(prisma, shop, new Date(), { reconcileIntervalMs: getEnv().RECONCILE_INTERVAL_MS }));
    logStrayRejections(logger);
    const resealed = await resealLegacyValues(prisma, getEnv().CREDENTIALS_KEY);
    if (resealed > 0) logger.info({ resealed }, "sealed values re-sealed for their shop and column (v2)");
    const sealedTokens = await sealClearSessionTokens(prisma, getEnv().CREDENTIALS_KEY);
    if (sealedTokens > 0) logger.info({ sealedTokens }, "Shopify tokens stored in clear sealed");
    const enrolments = await rekeyEnrolmentTriggers(prisma, getEnv().SHOPIFY_API_SECRET);
    if (enrolments.rekeyed + enrolments.deleted > 0) logger.info(enrolments, "ambassador enrolment triggers keyed with the app's secret");
    // The worker's thread first: the order intake is served in it.
    startInProcessWorker();
    await orderIntake().ready();
    await finishInterruptedInstalls(prisma, new Date(), { reconcileIntervalMs: getEnv().RECONCILE_INTERVAL_MS });
    await scheduleAllReconciles(prisma, new Date(), getEnv().RECONCILE_INTERVAL_MS);
    await schedulePurge(prisma, new Date());
  })();
  return started;
}

/**
 * On SIGTERM: order webhooks are refused from now on (503, so Shopify
 * delivers them again), the commits and service calls under way finish
 * within the deadline, the leases of jobs still running are released.
 */
export async function stopAppProcess(deadlineMs = getEnv().SHUTDOWN_DEADLINE_MS): Promise<void> {
  const until = Date.now() + deadlineMs;
  const left = () => Math.max(0, until - Date.now());
  orderWebhooks().stop();
  if (!(await webhooksAnswered(left()))) logger.warn("stopping with order webhooks still being stored; Shopify delivers them again");
  // Side by side: the worker claims nothing more and finishes its jobs while the intake plans what it kept (in the
  // worker's thread, which ends once both are done).
  const deadline = left();
  await Promise.all([orderIntake().close(deadline), stopInProcessWorker(deadline)]);
  await prisma.$disconnect();
  logger.info("stopped");
}

/**
 * `npm run worker`: a process that only runs jobs, beside app processes
 * started with WORKER_IN_PROCESS=false. The returned stop finishes the jobs
 * under way (SHUTDOWN_DEADLINE_MS at most) and releases the leases of the rest.
 */
export function startWorkerProcess(): { stop(): Promise<void> } {
  const databaseUrl = getEnv().DATABASE_URL;
  // On PostgreSQL, acknowledgements first (webhook-bursts.server.ts).
  const bursts = databaseKind(databaseUrl) === "postgresql" ? hearWebhookBursts(databaseUrl) : undefined;
  const worker = startJobWorker("process", { shouldYield: bursts?.duringBurst });
  return {
    async stop() {
      await worker.stop(getEnv().SHUTDOWN_DEADLINE_MS);
      await bursts?.close();
    },
  };
}
