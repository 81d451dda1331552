import "../entry/admin/browser-env";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import prisma from "../../app/wiring/db.server";
import { sandboxAppEnv, startAppServer, type AppServer } from "../entry/admin/app-server";
import { testDatabaseKind } from "../support/database";
import { shopifyOrder } from "../support/orders";
import { connectShop, sandboxCommissions, sandboxFaults, useTestSandbox } from "../support/pipeline";
import { signedWebhook } from "../support/shopify-requests";

// `npm start` (WORKER_IN_PROCESS=true): the job worker runs in a thread of
// the app process, not on the event loop that answers webhooks. A running
// job's lease names the worker that holds it: the process and the thread.

const sandbox = useTestSandbox();
let server: AppServer | undefined;
afterEach(() => server?.stop());

async function deliver(origin: string, id: number): Promise<number> {
  const signed = signedWebhook({
    topic: "orders/paid",
    url: `${origin}/webhooks/orders/paid`,
    body: shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }),
  });
  return (await fetch(signed)).status;
}

async function runningOrderJobLockedBy(): Promise<string | null> {
  for (let i = 0; i < 400; i++) {
    const job = await prisma.job.findFirst({ where: { kind: "order.record", status: "running" }, select: { lockedBy: true } });
    if (job) return job.lockedBy;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return null;
}

async function jobDone(where: { kind: string; id?: string }): Promise<boolean> {
  for (let i = 0; i < 400; i++) {
    if (await prisma.job.findFirst({ where: { ...where, status: "done" }, select: { id: true } })) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** The statements a thread of the app sent, by source ("plain", "prisma"), as it counts them for the bench (DB_STATEMENT_COUNTS_DIR). */
async function statementsOf(countsDir: string, lockedBy: string): Promise<Record<string, number>> {
  const [, pid, threadId] = /^worker-(\d+)-thread(\d+)-/.exec(lockedBy)!;
  // A thread writes its counts every 100 ms.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return (JSON.parse(readFileSync(join(countsDir, `${pid}-${threadId}.json`), "utf8")) as { counts: Record<string, number> }).counts;
}

describe("the in-process worker", () => {
  it("runs the order's job in a worker thread of the app process, and stops with it", async () => {
    await connectShop(sandbox);
    await sandboxFaults(sandbox, { latencyMs: 1_500, operations: ["event/record"] });
    server = await startAppServer({ ...sandboxAppEnv(), WORKER_IN_PROCESS: "true", SHUTDOWN_DEADLINE_MS: "10000" });

    expect(await deliver(server.origin, 9_710_001)).toBe(200);
    // Thread 0 is the main thread, the one that answers the webhooks.
    expect(await runningOrderJobLockedBy()).toMatch(/^worker-\d+-thread[1-9]\d*-/);

    expect(await server.terminate()).toBe(0);
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order.record" } })).toMatchObject({ status: "done", lockedBy: null });
    expect(await sandboxCommissions(sandbox, "9710001")).toHaveLength(1);
    // Its own bounded waits add up past 30 s on a busy machine: the served build's start (seconds at load 8), up
    // to 10 s for the job to show running, and a stop that may take the 10 s SHUTDOWN_DEADLINE_MS to settle it.
  }, 60_000);

  it("makes its Prisma client only when a job first needs one: an order's job runs on plain SQL alone, and the hourly purge still runs", async () => {
    // GIVEN the app with its worker in a thread, counting each thread's statements by source
    await connectShop(sandbox);
    await sandboxFaults(sandbox, { latencyMs: 500, operations: ["event/record"] });
    const countsDir = mkdtempSync(join(tmpdir(), "worker-thread-counts-"));
    server = await startAppServer({ ...sandboxAppEnv(), WORKER_IN_PROCESS: "true", DB_STATEMENT_COUNTS_DIR: countsDir });

    // WHEN an order's job runs
    expect(await deliver(server.origin, 9_710_002)).toBe(200);
    const lockedBy = await runningOrderJobLockedBy();
    expect(lockedBy).toMatch(/^worker-\d+-thread[1-9]\d*-/);
    expect(await jobDone({ kind: "order.record" })).toBe(true);
    expect(await sandboxCommissions(sandbox, "9710002")).toHaveLength(1);

    // THEN the worker's thread sent its statements in plain SQL, and none through a Prisma client: it has made none
    const afterOrder = await statementsOf(countsDir, lockedBy!);
    expect(afterOrder.plain).toBeGreaterThan(0);
    expect(afterOrder.prisma).toBeUndefined();
    // ... and on SQLite the order intake, which kept the webhook and planned it, is served in that same thread: no thread of its own
    if (testDatabaseKind() === "sqlite") {
      expect(afterOrder.intake).toBeGreaterThan(0);
      expect(readdirSync(countsDir).filter((file) => file.startsWith(`${server!.pid}-`))).toHaveLength(2);
    }

    // WHEN the hourly purge, which works through Prisma, falls due
    const purge = await prisma.job.findFirstOrThrow({ where: { kind: "privacy.purge", status: "queued" } });
    await prisma.job.update({ where: { id: purge.id }, data: { runAt: new Date() } });

    // THEN the thread makes its client, and the purge runs
    expect(await jobDone({ kind: "privacy.purge", id: purge.id })).toBe(true);
    expect((await statementsOf(countsDir, lockedBy!)).prisma).toBeGreaterThan(0);
  }, 60_000);
});
