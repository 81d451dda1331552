import { parentPort, workerData } from "node:worker_threads";
import { sqliteWriteLock } from "../../app/platform/db/write-lock";

// A thread that takes the process's SQLite write lock as the intake's thread
// does (holdFirst) when told to, keeps it `holdMs`, and says when it had it
// (sqlite-write-lock.test.ts). Its `progress` cell (shared memory) reads 1
// while it holds the lock and 2 once it let go.
const lock = sqliteWriteLock();
const progress = new Int32Array((workerData as { progress: SharedArrayBuffer }).progress);
parentPort!.on("message", ({ holdMs }: { holdMs: number }) => {
  lock.holdFirst(5_000);
  Atomics.store(progress, 0, 1);
  parentPort!.postMessage({ type: "held", at: performance.timeOrigin + performance.now() });
  const until = performance.now() + holdMs;
  while (performance.now() < until);
  Atomics.store(progress, 0, 2);
  lock.release();
  parentPort!.postMessage({ type: "released" });
});
