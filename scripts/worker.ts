// `npm run worker`: the job worker as a process of its own, beside app
// processes started with WORKER_IN_PROCESS=false. Several may run at once.
// On SIGTERM it finishes the jobs under way (SHUTDOWN_DEADLINE_MS at most),
// releases the leases of the rest and exits 0.
import "./lib/require-node";
import prisma from "../app/db.server";
import { getEnv } from "../app/env.server";
import { appJobContext, appWorkerOptions } from "../app/wiring/job-context.server";
import { createWorker } from "../app/queue/worker.server";
import { logger } from "../app/logger.server";
import { logStrayRejections } from "../app/wiring/stray-rejections.server";

logStrayRejections(logger);
const worker = createWorker(appJobContext(), appWorkerOptions());
worker.start();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await worker.stop({ deadlineMs: getEnv().SHUTDOWN_DEADLINE_MS });
    await prisma.$disconnect();
    process.exit(0);
  });
}
