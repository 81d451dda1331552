// `npm run worker`: the job worker as a process of its own, beside app
// processes started with WORKER_IN_PROCESS=false. Several may run at once.
import { appJobContext, appWorkerOptions } from "../app/jobs/context.server";
import { createWorker } from "../app/jobs/worker.server";

const worker = createWorker(appJobContext(), appWorkerOptions());
worker.start();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await worker.stop();
    process.exit(0);
  });
}
