import { parentPort, threadId } from "node:worker_threads";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { logger } from "../logger.server";
import { notifyJobEnqueued } from "../queue/wake";
import type { ToWorkerThread } from "./in-process-worker.server";
import { startJobWorker } from "./job-worker.server";

// The in-process worker's thread, started by startInProcessWorker
// (in-process-worker.server.ts): the app's job worker, with its own event
// loop and database client, as a worker process has, so its queries never
// hold up the event loop that answers webhooks. It ends (exit code 0) once
// stopped: the jobs under way finished within the deadline, the leases of
// the rest released.

/**
 * On Linux a thread has a scheduling priority of its own: this one yields
 * the cores to the threads that answer and store webhooks whenever both
 * want them, so a burst's acknowledgements never wait behind the jobs. Where
 * threads share their process's priority, it runs as before.
 */
function yieldTheCores(): void {
  try {
    const tid = Number(readFileSync("/proc/thread-self/stat", "latin1").split(" ", 1)[0]);
    setPriority(tid, WORKER_NICENESS);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
const WORKER_NICENESS = 10;

const port = parentPort!;
logger.setBindings({ thread: threadId });
yieldTheCores();
// The job rows' lockedBy names the process and the thread that holds them.
const worker = startJobWorker(`worker-${process.pid}-thread${threadId}-${randomUUID().slice(0, 8)}`);

port.on("message", async (message: ToWorkerThread) => {
  if (message.type === "job-enqueued") return notifyJobEnqueued();
  await worker.stop(message.deadlineMs);
  process.exit(0);
});
