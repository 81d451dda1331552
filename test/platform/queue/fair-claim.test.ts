import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { testDatabaseKind } from "../../support/database";
import { claimJobs, claimScan, claimStatement } from "../../../app/platform/queue/claim.server";
import { bindNamed, plainSql } from "../../../app/platform/db/sql.server";
import { holdShopJobs } from "../../../app/platform/queue/shop-jobs.server";
import { resetDatabase } from "../../support/database";
import { stepsOf, type PlanNode } from "../../support/query-plans";

// The worker's claim: one round trip for a batch, shops taken in turns (one
// shop's backlog does not hold up another's new order), and a cap on the jobs
// of one shop running at once across every worker.

const BIG = "flash-sale.myshopify.com";
const SMALL = "corner-shop.myshopify.com";

async function queue(shop: string, count: number, startMs: number) {
  await prisma.job.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      shop,
      kind: "order.cancel",
      key: `${shop}:order.cancel:${i}`,
      payload: JSON.stringify({ orderId: String(i) }),
      runAt: new Date(startMs + i),
    })),
  });
}

beforeEach(() => resetDatabase());

/** How the database reads a shop's due jobs in the claim: PostgreSQL's rows read (it runs the claim), SQLite's plan, a line a step. */
async function claimPlan(limit: number, now: Date): Promise<{ shopJobsRead: number[] } | { lines: string[] }> {
  const [text, params] = bindNamed(claimStatement({ database: testDatabaseKind(), workerId: "w1", leaseMs: 60_000, now, limit }), testDatabaseKind());
  const sql = plainSql(prisma);
  if (testDatabaseKind() === "postgresql") {
    await sql.boundRows(`ANALYZE "Job"`, []);
    const [row] = await sql.boundRows(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
    const plan = (row as { "QUERY PLAN": [{ Plan: PlanNode }] })["QUERY PLAN"][0].Plan;
    const shopJobs = stepsOf(plan).filter((step) => step["Relation Name"] === "Job" && /status = 'queued'.*shop = /.test(step["Index Cond"] ?? ""));
    return { shopJobsRead: shopJobs.map((step) => step["Actual Rows"] ?? 0) };
  }
  const rows = await sql.boundRows(`EXPLAIN QUERY PLAN ${text}`, params);
  return { lines: rows.map((row) => String((row as { detail: string }).detail)) };
}

describe("claiming a batch of jobs", () => {
  it("takes the shops in turns, so a later order of a small shop goes in the first batch", async () => {
    const now = Date.now();
    await queue(BIG, 200, now - 60_000);
    await queue(SMALL, 2, now - 1_000);
    const batch = await claimJobs(prisma, { database: testDatabaseKind(), workerId: "w1", leaseMs: 60_000, now: new Date(now), limit: 4 });
    expect(batch.map((job) => job.shop).sort()).toEqual([SMALL, SMALL, BIG, BIG].sort());
    expect(batch.every((job) => job.status === "running" && job.lockedBy === "w1" && job.attempts === 1)).toBe(true);
    expect(batch.every((job) => job.runAt instanceof Date && job.leaseUntil!.getTime() === now + 60_000)).toBe(true);
    expect(await prisma.job.count({ where: { status: "running" } })).toBe(4);
  });

  it("never runs more of one shop's jobs at once than its share, across workers", async () => {
    const now = new Date();
    await queue(BIG, 50, now.getTime() - 60_000);
    const first = await claimJobs(prisma, { database: testDatabaseKind(), workerId: "w1", leaseMs: 60_000, now, limit: 8, perShop: 10 });
    const second = await claimJobs(prisma, { database: testDatabaseKind(), workerId: "w2", leaseMs: 60_000, now, limit: 8, perShop: 10 });
    expect([first.length, second.length]).toEqual([8, 2]);
    expect(await claimJobs(prisma, { database: testDatabaseKind(), workerId: "w3", leaseMs: 60_000, now, limit: 8, perShop: 10 })).toEqual([]);
    // Another shop still gets its turn.
    await queue(SMALL, 1, now.getTime());
    expect((await claimJobs(prisma, { database: testDatabaseKind(), workerId: "w3", leaseMs: 60_000, now, limit: 8, perShop: 10 })).map((job) => job.shop)).toEqual([SMALL]);
  });

  it("gives each job to one worker when many claim at once", async () => {
    const now = new Date();
    await queue(BIG, 40, now.getTime() - 60_000);
    await queue(SMALL, 40, now.getTime() - 60_000);
    const batches = await Promise.all(Array.from({ length: 6 }, (_, i) => claimJobs(prisma, { database: testDatabaseKind(), workerId: `w${i}`, leaseMs: 60_000, now, limit: 10 })));
    const ids = batches.flat().map((job) => job.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
    const running = await prisma.job.findMany({ where: { status: "running" }, select: { id: true, lockedBy: true } });
    expect(running.map((job) => job.id).sort()).toEqual([...ids].sort());
  });

  it("reads a shop's first jobs in order, not its whole backlog", async () => {
    // One batch of the intake: its jobs share one runAt, and the id settles their order.
    const now = new Date();
    const runAt = new Date(now.getTime() - 1_000);
    await prisma.job.createMany({
      data: Array.from({ length: 3_000 }, (_, i) => ({ shop: BIG, kind: "order.record", key: `${BIG}:order.record:${i}`, payload: "{}", runAt, lane: `${BIG}:${i}`, laneAt: runAt })),
    });
    const plan = await claimPlan(40, now);
    if ("shopJobsRead" in plan) {
      expect(plan.shopJobsRead).toEqual([claimScan(40)]);
    } else {
      // SQLite reads a shop's jobs in the index's order: no sort of their last term, which would read every job of one runAt.
      expect(plan.lines).toContain("SEARCH q USING COVERING INDEX Job_status_shop_runAt_id_idx (status=? AND shop=? AND runAt<?)");
      expect(plan.lines.filter((line) => /OF ORDER BY/.test(line))).toEqual([]);
    }
    await claimJobs(prisma, { database: testDatabaseKind(), workerId: "w2", leaseMs: 60_000, now, limit: 40 });
    // The jobs taken (by PostgreSQL's EXPLAIN ANALYZE too, which ran the claim) are the shop's first.
    const running = await prisma.job.findMany({ where: { shop: BIG, status: "running" }, select: { id: true } });
    const first = await prisma.job.findMany({ where: { shop: BIG }, orderBy: [{ runAt: "asc" }, { id: "asc" }], take: running.length, select: { id: true } });
    expect(running).toHaveLength(testDatabaseKind() === "postgresql" ? 80 : 40);
    expect(running.map((job) => job.id).sort()).toEqual(first.map((job) => job.id).sort());
  });

  it("lets workers claim side by side while a shop's jobs are held back, without a deadlock", async () => {
    const now = new Date();
    const shops = Array.from({ length: 8 }, (_, i) => `shop-${i}.myshopify.com`);
    for (const shop of shops) await queue(shop, 60, now.getTime() - 60_000);
    const taken: string[] = [];
    const errors: unknown[] = [];
    // Each worker finishes what it took before its next round, as the worker's pump does.
    const worker = async (workerId: string) => {
      for (let round = 0; round < 200; round++) {
        let batch;
        try {
          batch = await claimJobs(prisma, { database: testDatabaseKind(), workerId, leaseMs: 60_000, now: new Date(), limit: 12 });
        } catch (error) {
          errors.push(error);
          continue;
        }
        if (batch.length === 0 && (await prisma.job.count({ where: { status: "queued" } })) === 0) return;
        taken.push(...batch.map((job) => job.id));
        await prisma.job.updateMany({ where: { id: { in: batch.map((job) => job.id) } }, data: { status: "done", lockedBy: null, leaseUntil: null } });
      }
    };
    // Meanwhile jobs told to slow down (a 429) hold their shop's queued jobs back, many rows in one statement.
    let claiming = true;
    const holder = async () => {
      // On SQLite a hold is one synchronous statement: without a pause between rounds the loop would never let the claims run.
      for (; claiming; await new Promise((resolve) => setImmediate(resolve))) {
        for (const shop of shops) {
          try {
            await holdShopJobs(prisma, shop, ["order.cancel"], new Date());
          } catch (error) {
            errors.push(error);
          }
        }
      }
    };
    const holding = Promise.all([holder(), holder()]);
    await Promise.all(Array.from({ length: 6 }, (_, i) => worker(`w${i}`)));
    claiming = false;
    await holding;
    expect(errors.map(String)).toEqual([]);
    expect(taken).toHaveLength(shops.length * 60);
    expect(new Set(taken).size).toBe(taken.length);
  }, 60_000);
});
