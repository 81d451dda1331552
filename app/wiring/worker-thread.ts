import { parentPort, threadId } from "node:worker_threads";
import { randomUUID } from "node:crypto";
import { logger } from "../platform/logger/logger.server";
import { notifyJobEnqueued } from "../platform/queue/wake";
import { WebhooksAnswering } from "../platform/threads/webhooks-answering";
import { serveIntake } from "../platform/intake/sqlite-intake";
import { INTAKE_PLANNER } from "./intake-planner";
import type { ToWorkerThread } from "./in-process-worker.server";
import { startJobWorker } from "./job-worker.server";

// The in-process worker's thread, started by startInProcessWorker
// (in-process-worker.server.ts): the app's job worker, with its own event
// loop and database client, as a worker process has, so its queries never
// hold up the event loop that answers webhooks. It ends (exit code 0) once
// stopped: the jobs under way finished within the deadline, the leases of
// the rest released.

const port = parentPort!;
logger.setBindings({ thread: threadId });
const answering = new WebhooksAnswering();
const worker = startJobWorker("thread", {
  // The job rows' lockedBy names the process and the thread that holds them.
  workerId: `worker-${process.pid}-thread${threadId}-${randomUUID().slice(0, 8)}`,
  // Acknowledgements first: no claim while the main thread answers a burst of order webhooks (bounded, see shouldYield).
  shouldYield: () => answering.inBurst(),
});

/** The intakes served here (the app's order intake): each resolves once its store has let it go. */
const intakes: Promise<void>[] = [];

port.on("message", async (message: ToWorkerThread) => {
  if (message.type === "job-enqueued") return notifyJobEnqueued();
  if (message.type === "intake") {
    try {
      intakes.push(serveIntake(message.port, message.settings, INTAKE_PLANNER, { shared: true }));
    } catch (error) {
      // The database would not open here: the store, its port closed, gets an intake of its own.
      logger.error({ err: error }, "the job worker's thread could not serve the order intake");
      message.port.close();
    }
    return;
  }
  const until = Date.now() + message.deadlineMs;
  await worker.stop(message.deadlineMs);
  // The intake's store is closing beside the worker (it plans what it kept, here): the thread ends once it has, or at the deadline.
  await Promise.race([Promise.all(intakes), new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())))]);
  process.exit(0);
});
