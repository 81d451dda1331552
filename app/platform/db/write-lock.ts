import { isMainThread, threadId, workerData } from "node:worker_threads";

// One SQLite write transaction at a time among the threads of a process (the
// order intake and the job worker, in one thread or two), handed over the moment
// it ends. Without it, a writer that meets the other thread's transaction is
// left to SQLite's busy handler, which sleeps 1, 2, 5 ... up to 100 ms
// between tries whatever the other's transaction takes (well under a
// millisecond); the webhooks waiting on the intake's commit waited those
// sleeps. The intake comes first: while it waits, the worker lets it by.
// SQLite's own lock still stands between processes (and Prisma's
// connections), with the busy handling as before.

const FREE = 0;
/** Cells of the shared buffer: who holds the lock, and which first writer waits for it (each a thread's id + 1, or FREE). */
const HOLDER = 0;
const FIRST_WAITING = 1;
/** How long another writer lets a first writer that waits take a free lock, before it takes the lock itself. */
const FIRST_WRITER_GRACE_MS = 20;
/** How long a writer that SQLite answered busy waits before it tries again (whenFree). */
const BUSY_RETRY_MS = 5;

/** The error a writer gets when the lock stayed held longer than it may wait, coded as SQLite's own. */
export class WriteLockBusyError extends Error {
  readonly code = "SQLITE_BUSY";
  constructor(waitedMs: number) {
    super(`SQLite's write lock stayed held for more than ${waitedMs} ms`);
    this.name = "WriteLockBusyError";
  }
}

export class WriteLock {
  private readonly cells: Int32Array;
  private readonly me = threadId + 1;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  /**
   * For the writer that comes first, on a thread that does nothing else
   * meanwhile (the intake's): blocks until the lock is taken, or throws
   * after `timeoutMs`.
   */
  holdFirst(timeoutMs: number): void {
    for (const { holder, left } of this.firstWritersTries(timeoutMs)) Atomics.wait(this.cells, HOLDER, holder, left);
  }

  /**
   * The same for a first writer that shares its thread (the intake beside
   * the job worker): waits without blocking the thread's event loop.
   */
  private async holdFirstAsync(timeoutMs: number): Promise<void> {
    for (const { holder, left } of this.firstWritersTries(timeoutMs)) {
      const waited = Atomics.waitAsync(this.cells, HOLDER, holder, left);
      if (waited.async) await waited.value;
    }
  }

  /**
   * A first writer's tries to take the lock: each that finds it held yields
   * the holder and how long the writer may still wait for it to change (the
   * caller waits, blocking or not); done once taken, thrown past `timeoutMs`.
   */
  private *firstWritersTries(timeoutMs: number): Generator<{ holder: number; left: number }, void> {
    const until = performance.now() + timeoutMs;
    Atomics.store(this.cells, FIRST_WAITING, this.me);
    try {
      for (;;) {
        const holder = Atomics.compareExchange(this.cells, HOLDER, FREE, this.me);
        if (holder === FREE) {
          // A writer that let it by waits for this (hold()).
          Atomics.notify(this.cells, HOLDER);
          return;
        }
        const left = until - performance.now();
        if (left <= 0) throw new WriteLockBusyError(timeoutMs);
        yield { holder, left };
      }
    } finally {
      Atomics.compareExchange(this.cells, FIRST_WAITING, this.me, FREE);
    }
  }

  /**
   * `work` under this lock, taken as a first writer, as any other, or not at
   * all (a read), never blocking the thread: SQLite's own SQLITE_BUSY
   * (another process, a Prisma transaction, of this thread too) lets the
   * lock go, gives the event loop back and tries again, for `waitMs` in all.
   */
  async whenFree<T>(work: () => T, waitMs: number, as: "first" | "other" | "reader"): Promise<T> {
    const until = performance.now() + waitMs;
    for (;;) {
      const left = Math.max(0, until - performance.now());
      if (as === "first") await this.holdFirstAsync(left);
      else if (as === "other") await this.hold(left);
      try {
        return work();
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY" || performance.now() >= until) throw error;
      } finally {
        if (as !== "reader") this.release();
      }
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
    }
  }

  /** For any other writer: waits without blocking its event loop, and lets a first writer that waits go before it. */
  async hold(timeoutMs: number): Promise<void> {
    const until = performance.now() + timeoutMs;
    let freeSince: number | undefined;
    for (;;) {
      const holder = Atomics.load(this.cells, HOLDER);
      const now = performance.now();
      if (holder === FREE) {
        freeSince ??= now;
        const yielding = Atomics.load(this.cells, FIRST_WAITING) !== FREE && now - freeSince < FIRST_WRITER_GRACE_MS;
        if (!yielding && Atomics.compareExchange(this.cells, HOLDER, FREE, this.me) === FREE) return;
        // A first writer is about to take it: wait until it has (or the grace is over).
        const taken = Atomics.waitAsync(this.cells, HOLDER, FREE, yielding ? FIRST_WRITER_GRACE_MS - (now - freeSince) : 0);
        if (taken.async) await taken.value;
        continue;
      }
      freeSince = undefined;
      if (now >= until) throw new WriteLockBusyError(timeoutMs);
      const waited = Atomics.waitAsync(this.cells, HOLDER, holder, until - now);
      if (waited.async) await waited.value;
    }
  }

  release(): void {
    this.releaseHeldBy(this.me - 1);
  }

  /**
   * What a thread that ended held or waited for is let go (its owner calls
   * this on the thread's exit): a thread stopped with terminate() in the
   * middle of a write, or of its wait, runs no `finally`.
   */
  releaseHeldBy(thread: number): void {
    Atomics.compareExchange(this.cells, FIRST_WAITING, thread + 1, FREE);
    if (Atomics.compareExchange(this.cells, HOLDER, thread + 1, FREE) === thread + 1) Atomics.notify(this.cells, HOLDER);
  }
}

declare global {
  // One lock per process, whichever module copy asks (Remix dev reloads, tests).
  var __referralBridgeSqliteWriteLock: SharedArrayBuffer | undefined;
}

/** The buffer a thread started by this process must be given (workerData.sqliteWriteLock) to share the lock. */
export function sqliteWriteLockBuffer(): SharedArrayBuffer {
  const handed = isMainThread ? undefined : (workerData as { sqliteWriteLock?: unknown } | null)?.sqliteWriteLock;
  globalThis.__referralBridgeSqliteWriteLock ??= handed instanceof SharedArrayBuffer ? handed : new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  return globalThis.__referralBridgeSqliteWriteLock;
}

/** This process's SQLite write lock. */
export function sqliteWriteLock(): WriteLock {
  return new WriteLock(sqliteWriteLockBuffer());
}
