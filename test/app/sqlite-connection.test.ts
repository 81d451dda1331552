import { describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db.server";
import { databaseKind } from "../../app/db/adapter.server";

// Prisma's SQLite connection gets its PRAGMAs as it opens (createAdapter),
// not from queries sent after the client is made: made on first use
// (db.server.ts), a client whose first use is a transaction would run them
// inside it, where SQLite refuses to change the safety level (and the test
// set-up fails a test that writes an unexpected console.error).

const onSqlite = databaseKind(process.env.DATABASE_URL!) === "sqlite";

describe.skipIf(!onSqlite)("Prisma's SQLite connection", () => {
  it("is in WAL mode with synchronous FULL and a 5 s busy timeout, also when its first use is a transaction", async () => {
    const client = createPrismaClient(process.env.DATABASE_URL!);
    try {
      const seen = await client.$transaction(async (tx) => ({
        journal: await tx.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode"),
        synchronous: await tx.$queryRawUnsafe<{ synchronous: bigint | number }[]>("PRAGMA synchronous"),
        timeout: await tx.$queryRawUnsafe<{ timeout: bigint | number }[]>("PRAGMA busy_timeout"),
      }));
      expect(seen.journal[0]!.journal_mode).toBe("wal");
      expect(Number(seen.synchronous[0]!.synchronous)).toBe(2);
      expect(Number(seen.timeout[0]!.timeout)).toBe(5000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.$disconnect();
    }
  });
});
