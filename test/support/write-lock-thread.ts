import { parentPort } from "node:worker_threads";
import { sqliteWriteLock } from "../../app/platform/db/write-lock";

// A thread that takes the process's SQLite write lock as the intake's thread
// does (holdFirst) when told to, keeps it `holdMs`, and says when it had it
// (sqlite-write-lock.test.ts).
const lock = sqliteWriteLock();
parentPort!.on("message", ({ holdMs }: { holdMs: number }) => {
  lock.holdFirst(5_000);
  parentPort!.postMessage({ type: "held", at: performance.timeOrigin + performance.now() });
  const until = performance.now() + holdMs;
  while (performance.now() < until);
  lock.release();
  parentPort!.postMessage({ type: "released" });
});
