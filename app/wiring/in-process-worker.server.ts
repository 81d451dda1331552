import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import { sqliteWriteLock, sqliteWriteLockBuffer } from "../platform/db/write-lock";
import { getEnv } from "./env.server";
import { logger } from "../platform/logger/logger.server";
import { onJobEnqueued } from "../platform/queue/wake";
import { threadModule } from "../platform/threads/thread-module";
import { webhooksAnsweringBuffer } from "../platform/threads/webhooks-answering";
import type { IntakeHost, ThreadSettings } from "../platform/intake/intake-store.server";

// The in-process worker runs in a worker thread of the app process
// (worker-thread.ts): its database work and its jobs' CPU never hold up the
// event loop that answers webhooks, and it claims no job while that loop is
// answering some (webhooks-answering.ts). A thread that ends on its own (a crash)
// is logged and started again; the jobs it held are taken again once their
// leases run out.

/** The first restart's wait; it doubles with each crash in a row, up to RESTART_MAX_MS. */
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 60_000;
/**
 * The thread's V8 heap, bounded. Young generation: V8's default lets it grow
 * to 48 MB, and in a busy thread it does, for little gain; at 12 MB (4 MB
 * semi-spaces) the worker's scavenges stay short and frequent. Old
 * generation: the worker's live data (a claim's jobs, the caches) stays under
 * 70 MB at the bench's load; a leak ends the thread (out of memory) past
 * 160 MB, which restarts it, instead of growing the process.
 */
const HEAP_LIMITS = { maxYoungGenerationSizeMb: 12, maxOldGenerationSizeMb: 160 };
/** A thread that ran this long before it crashed counts as healthy: the next restart waits RESTART_MIN_MS again. */
const HEALTHY_MS = 60_000;

/** What the app's main thread tells the worker's thread; `intake`: serve the order intake on this port (one V8 heap for both, not two). */
export type ToWorkerThread = { type: "job-enqueued" } | { type: "stop"; deadlineMs: number } | { type: "intake"; port: MessagePort; settings: ThreadSettings };

interface InProcessWorker {
  stop(deadlineMs: number): Promise<void>;
  /** A port to an intake served in the worker's thread (with the planner it imports, intake-planner.ts); undefined while the thread is not running. */
  hostIntake(settings: ThreadSettings): MessagePort | undefined;
}

declare global {
  // One worker across Remix dev reloads.
  var __referralBridgeWorker: InProcessWorker | undefined;
}

/** Starts the job worker's thread unless WORKER_IN_PROCESS=false (then use `npm run worker`). */
export function startInProcessWorker(): void {
  if (!getEnv().WORKER_IN_PROCESS || globalThis.__referralBridgeWorker) return;
  globalThis.__referralBridgeWorker = workerThread();
}

/**
 * The SQLite order intake of this process, served in the worker's thread
 * when it runs: a thread of the intake's own would cost its own V8 isolate
 * and heap (about 20 MB at a burst). Undefined without one (WORKER_IN_PROCESS
 * false, or the thread restarting after a crash): the intake then gets a
 * thread of its own.
 */
export const intakeInWorkerThread: IntakeHost = (settings) => globalThis.__referralBridgeWorker?.hostIntake(settings);

/** Lets the jobs under way finish within the deadline; the leases of the rest are released. */
export async function stopInProcessWorker(deadlineMs: number): Promise<void> {
  const worker = globalThis.__referralBridgeWorker;
  globalThis.__referralBridgeWorker = undefined;
  await worker?.stop(deadlineMs);
}

function workerThread(): InProcessWorker {
  let thread: Worker | undefined;
  let stopping: Promise<void> | undefined;
  let restartMs = RESTART_MIN_MS;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  const tell = (message: ToWorkerThread) => thread?.postMessage(message);
  // A job queued by this thread (a webhook's, an admin action's) wakes the worker at once.
  const unsubscribe = onJobEnqueued(() => tell({ type: "job-enqueued" }));

  function start(): void {
    const { entry, execArgv } = threadModule("worker-thread", "app/wiring/worker-thread.ts");
    const started = new Worker(entry, { execArgv, resourceLimits: HEAP_LIMITS, workerData: { sqliteWriteLock: sqliteWriteLockBuffer(), webhooksAnswering: webhooksAnsweringBuffer() } });
    const startedAt = Date.now();
    thread = started;
    started.on("error", (error) => logger.error({ err: error }, "the job worker's thread failed"));
    const startedId = started.threadId;
    started.on("exit", (code) => {
      sqliteWriteLock().releaseHeldBy(startedId);
      if (thread !== started) return;
      thread = undefined;
      if (stopping) return;
      if (Date.now() - startedAt >= HEALTHY_MS) restartMs = RESTART_MIN_MS;
      logger.error({ code, restartInMs: restartMs }, "the job worker's thread stopped; it starts again (the jobs it held are taken again once their leases run out)");
      restartTimer = setTimeout(start, restartMs);
      restartTimer.unref();
      restartMs = Math.min(restartMs * 2, RESTART_MAX_MS);
    });
  }

  start();
  return {
    hostIntake(settings) {
      if (!thread || stopping) return undefined;
      const { port1, port2 } = new MessageChannel();
      thread.postMessage({ type: "intake", port: port2, settings } satisfies ToWorkerThread, [port2]);
      return port1;
    },
    stop(deadlineMs) {
      stopping ??= new Promise<void>((resolve) => {
        unsubscribe();
        clearTimeout(restartTimer);
        const running = thread;
        if (!running) return resolve();
        running.once("exit", () => resolve());
        running.postMessage({ type: "stop", deadlineMs } satisfies ToWorkerThread);
        // The thread ends by itself once its jobs are finished or given back; this is in case it cannot.
        setTimeout(() => void running.terminate(), deadlineMs + 5_000).unref();
      });
      return stopping;
    },
  };
}
