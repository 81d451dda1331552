import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { createPrismaClient } from "../../../app/wiring/db.server";
import { databaseKind } from "../../../app/platform/db/adapter.server";
import { createPlainSql } from "../../../app/platform/db/sql.server";
import { SQLITE_CACHE_KIB } from "../../../app/platform/db/sqlite-connection";

// Prisma's SQLite connection gets its PRAGMAs as it opens (createAdapter),
// not from queries sent after the client is made: made on first use
// (db.server.ts), a client whose first use is a transaction would run them
// inside it, where SQLite refuses to change the safety level (and the test
// set-up fails a test that writes an unexpected console.error).

const onSqlite = databaseKind(process.env.DATABASE_URL!) === "sqlite";

describe.skipIf(!onSqlite)("Prisma's SQLite connection", () => {
  it("is in WAL mode with synchronous FULL, a 5 s busy timeout and the app's page cache, also when its first use is a transaction", async () => {
    const client = createPrismaClient(process.env.DATABASE_URL!);
    try {
      const seen = await client.$transaction(async (tx) => ({
        journal: await tx.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode"),
        synchronous: await tx.$queryRawUnsafe<{ synchronous: bigint | number }[]>("PRAGMA synchronous"),
        timeout: await tx.$queryRawUnsafe<{ timeout: bigint | number }[]>("PRAGMA busy_timeout"),
        cache: await tx.$queryRawUnsafe<{ cache_size: bigint | number }[]>("PRAGMA cache_size"),
      }));
      expect(seen.journal[0]!.journal_mode).toBe("wal");
      expect(Number(seen.synchronous[0]!.synchronous)).toBe(2);
      expect(Number(seen.timeout[0]!.timeout)).toBe(5000);
      expect(Number(seen.cache[0]!.cache_size)).toBe(-SQLITE_CACHE_KIB);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.$disconnect();
    }
  });

  it("has the same page cache as the plain SQL's connection (openSqlite, which the intake's opens with too)", async () => {
    const plain = createPlainSql(process.env.DATABASE_URL!);
    try {
      expect(await plain.boundRows("PRAGMA cache_size", [])).toEqual([{ cache_size: -SQLITE_CACHE_KIB }]);
    } finally {
      await plain.close();
    }
  });

  it("waits for another connection's write in a transaction that reads before it writes, instead of failing at once", async () => {
    const client = createPrismaClient(process.env.DATABASE_URL!);
    const shop = "begins-immediately.myshopify.com";
    const holder = await holdWriteLock(400);
    try {
      const started = performance.now();
      // Prisma sends this upsert (no update) as a transaction: SELECT, then INSERT.
      await client.shop.upsert({ where: { shop }, create: { shop }, update: {} });
      expect(performance.now() - started).toBeGreaterThan(200);
      await holder.done;
      const second = await holdWriteLock(400);
      await client.$transaction(async (tx) => {
        const row = await tx.shop.findUniqueOrThrow({ where: { shop } });
        await tx.shop.update({ where: { shop }, data: { companyName: `${row.shop} again` } });
      });
      await second.done;
      expect((await client.shop.findUniqueOrThrow({ where: { shop } })).companyName).toBe(`${shop} again`);
    } finally {
      await holder.done;
      await client.shop.deleteMany({ where: { shop } });
      await client.$disconnect();
    }
  });
});

/** Another connection, on a thread of its own, takes SQLite's write lock and keeps it for `ms`; resolves once it holds it. */
async function holdWriteLock(ms: number): Promise<{ done: Promise<void> }> {
  const path = process.env.DATABASE_URL!.slice("file:".length);
  const worker = new Worker(
    `const { workerData, parentPort } = require("node:worker_threads");
     const db = new (require("better-sqlite3"))(workerData.path);
     db.exec("BEGIN IMMEDIATE");
     parentPort.postMessage("held");
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
     db.exec("COMMIT");
     db.close();`,
    { eval: true, workerData: { path, ms } },
  );
  const done = new Promise<void>((resolve, reject) => {
    worker.once("exit", () => resolve());
    worker.once("error", reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  return { done };
}
