import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { types } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";

// The benchmark's statement counts (npm run bench): the app's database layer
// counts what it sends only when DB_STATEMENT_COUNTS_DIR is set.

async function freshModules() {
  vi.resetModules();
  const { createAdapter } = await import("../../../app/platform/db/adapter.server");
  const { PrismaClient } = await import("@prisma/client");
  return { createAdapter, PrismaClient };
}

describe("statement counts", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("are off by default: the driver adapter is the driver's own", async () => {
    vi.stubEnv("DB_STATEMENT_COUNTS_DIR", "");
    const { createAdapter } = await freshModules();
    expect(types.isProxy(createAdapter(process.env.DATABASE_URL!))).toBe(false);
  });

  it("count every statement a Prisma client sends, a transaction's BEGIN and COMMIT included, in a file per thread", async () => {
    const dir = mkdtempSync(join(tmpdir(), "statement-counts-"));
    vi.stubEnv("DB_STATEMENT_COUNTS_DIR", dir);
    const { createAdapter, PrismaClient } = await freshModules();
    const db = new PrismaClient({ adapter: createAdapter(process.env.DATABASE_URL!) });
    const written = async () => {
      await new Promise((resolve) => setTimeout(resolve, 250));
      return JSON.parse(readFileSync(join(dir, `${process.pid}-0.json`), "utf8")) as { tid: number; mainThread: boolean; counts: Record<string, number> };
    };
    try {
      await db.shop.count();
      const before = await written();
      expect(before.tid).toBe(process.pid);
      expect(before.mainThread).toBe(true);

      await db.$transaction(async (tx) => {
        await tx.shop.count();
        await tx.shop.findFirst({ where: { shop: "none.myshopify.com" } });
      });
      await db.shop.count();
      // BEGIN, two queries, COMMIT; then one query.
      expect((await written()).counts.prisma! - before.counts.prisma!).toBe(5);
    } finally {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
