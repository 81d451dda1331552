import { getEnv } from "../env.server";
import type { Worker } from "../queue/worker.server";
import { appJobContext, appWorker, appWorkerOptions } from "./jobs.server";

declare global {
  var __referralBridgeWorker: Worker | undefined;
}

/** Runs the job worker inside the app process unless WORKER_IN_PROCESS=false (then use `npm run worker`). */
export function startInProcessWorker(): void {
  if (!getEnv().WORKER_IN_PROCESS || globalThis.__referralBridgeWorker) return;
  const worker = appWorker(appJobContext(), appWorkerOptions());
  globalThis.__referralBridgeWorker = worker;
  worker.start();
}

/** Lets the jobs under way finish within the deadline; the leases of the rest are released. */
export async function stopInProcessWorker(deadlineMs: number): Promise<void> {
  const worker = globalThis.__referralBridgeWorker;
  globalThis.__referralBridgeWorker = undefined;
  await worker?.stop({ deadlineMs });
}
