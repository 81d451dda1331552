// `npm run worker`: the job worker as a process of its own, beside app
// processes started with WORKER_IN_PROCESS=false. Several may run at once.
// On SIGTERM it finishes the jobs under way (SHUTDOWN_DEADLINE_MS at most),
// releases the leases of the rest and exits 0.
import "./lib/require-node";
import { startWorkerProcess } from "../app/wiring/process.server";

const worker = startWorkerProcess();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await worker.stop();
    process.exit(0);
  });
}
