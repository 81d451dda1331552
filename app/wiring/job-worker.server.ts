import prisma from "./db.server";
import { logger } from "../platform/logger/logger.server";
import type { WorkerOptions } from "../platform/queue/worker.server";
import { appJobContext, appWorker, appWorkerOptions } from "./jobs.server";
import { logStrayRejections } from "./stray-rejections.server";

/**
 * A job worker with its own database client: the whole of a worker process
 * (`npm run worker`), or of the in-process worker's thread (worker-thread.ts).
 * Its stop finishes the jobs under way within the deadline, releases the
 * leases of the rest and closes the client. Shopify's app configuration
 * (shopify.server.ts, with the development fetch to the Admin stand-in) loads
 * with the first job that calls the Admin API (admin-access.server.ts).
 */
export function startJobWorker(
  host: "process" | "thread",
  options: Pick<WorkerOptions, "workerId" | "shouldYield"> = {},
): { stop(deadlineMs: number): Promise<void> } {
  logStrayRejections(logger);
  const worker = appWorker(appJobContext(), { ...appWorkerOptions(host), ...options });
  worker.start();
  return {
    async stop(deadlineMs) {
      await worker.stop({ deadlineMs });
      await prisma.$disconnect();
    },
  };
}
