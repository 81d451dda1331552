import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteWriteLock, sqliteWriteLockBuffer } from "../../../app/platform/db/write-lock";
import { threadModule } from "../../../app/platform/threads/thread-module";

// The process's SQLite write lock (app/platform/db/write-lock.ts), between this
// thread (as the job worker's) and a thread that takes it as the intake's does.

const threads: Worker[] = [];
afterEach(async () => {
  for (const thread of threads.splice(0)) {
    const id = thread.threadId;
    await thread.terminate();
    sqliteWriteLock().releaseHeldBy(id);
  }
});

/** A thread that takes the lock as the intake's does; `progress` reads 1 while it holds the lock, 2 once it let go. */
function intakeLikeThread(): Worker & { progress: Int32Array } {
  const { entry, execArgv } = threadModule("no-built-entry", "test/support/write-lock-thread.ts");
  const progress = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const thread = new Worker(entry, { execArgv, workerData: { sqliteWriteLock: sqliteWriteLockBuffer(), progress } });
  threads.push(thread);
  return Object.assign(thread, { progress: new Int32Array(progress) });
}

const wallClock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until the thread waits in holdFirst (the buffer's second cell names the first writer that waits). */
async function waitingFirst(thread: Worker): Promise<void> {
  const cells = new Int32Array(sqliteWriteLockBuffer());
  while (Atomics.load(cells, 1) !== thread.threadId + 1) await sleep(1);
}

async function nextMessage(thread: Worker, type: string): Promise<{ type: string; at: number }> {
  for (;;) {
    const [message] = (await once(thread, "message")) as [{ type: string; at: number }];
    if (message.type === type) return message;
  }
}

describe("the SQLite write lock shared by the app's threads", () => {
  it("is handed to the intake's thread the moment the other thread's write ends, however long it waited", async () => {
    const lock = sqliteWriteLock();
    const thread = intakeLikeThread();
    await lock.hold(1_000);
    thread.postMessage({ holdMs: 0 });
    await waitingFirst(thread);
    // SQLite's own busy handler would by now sleep 50 to 100 ms between tries.
    await sleep(300);
    const releasedAt = wallClock();
    lock.release();
    const { at } = await nextMessage(thread, "held");
    expect(at).toBeGreaterThanOrEqual(releasedAt);
    expect(at - releasedAt).toBeLessThan(25);
  });

  it("lets the intake's thread go first: another writer waits while it waits, even when the lock is free", async () => {
    const lock = sqliteWriteLock();
    const thread = intakeLikeThread();
    await lock.hold(1_000);
    thread.postMessage({ holdMs: 100 });
    await waitingFirst(thread);
    const held = nextMessage(thread, "held");
    lock.release();
    await lock.hold(5_000);
    // Read in the same shared memory the lock is, not on two threads' clocks: the thread had it and let it go first.
    const threadWas = Atomics.load(thread.progress, 0);
    lock.release();
    await held;
    expect(threadWas).toBe(2);
  });

  it("is let go when a thread ends in the middle of its write (terminated: no finally runs)", async () => {
    const lock = sqliteWriteLock();
    const thread = intakeLikeThread();
    thread.postMessage({ holdMs: 60_000 });
    await nextMessage(thread, "held");
    await expect(lock.hold(200)).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    // What the thread's owner does on its exit (intake-store.server.ts, in-process-worker.server.ts); a
    // thread that has ended answers -1 for its threadId, so the owner notes it at the start.
    const id = thread.threadId;
    await thread.terminate();
    lock.releaseHeldBy(id);
    await lock.hold(200);
    lock.release();
  });

  it("gives up after the wait it is allowed, with SQLite's own busy code", async () => {
    const lock = sqliteWriteLock();
    await lock.hold(1_000);
    try {
      const started = performance.now();
      await expect(lock.hold(50)).rejects.toMatchObject({ code: "SQLITE_BUSY" });
      expect(performance.now() - started).toBeGreaterThanOrEqual(49);
    } finally {
      lock.release();
    }
  });
});
