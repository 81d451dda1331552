import "../../entry/admin/browser-env";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { inheritedEnv, spawnWorkerProcess } from "../../../scripts/lib/app-process";
import { repoRoot, sandboxAppEnv, startTestAppServer, type AppServer } from "../../entry/admin/app-server";
import { shopifyOrder, shopifyRefund } from "../../support/orders";
import { connectShop, sandboxCommissions, useTestSandbox } from "../../support/pipeline";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned } from "../../support/kept-deliveries";

// Two refunds and a cancellation of one order delivered at the same moment,
// with two worker processes taking jobs side by side (as production runs on
// PostgreSQL): the order ends as it would had they come one after another.

const sandbox = useTestSandbox();
let server: AppServer;
let workers: ChildProcess[] = [];

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGTERM");
  await server?.stop();
});

function startWorkers(): void {
  // The compiled worker process (`npm run worker`), on this test's database. It calls the sandbox on this
  // machine, which only a development process may (the app server only takes webhooks: production).
  workers = [1, 2].map(() =>
    spawnWorkerProcess({
      cwd: repoRoot,
      env: { ...inheritedEnv(), ...sandboxAppEnv(), NODE_ENV: "development", SHOPIFY_APP_URL: server.origin, WORKER_CONCURRENCY: "4", JOB_RETRY_BASE_MS: "100" },
      stdio: "ignore",
    }),
  );
}

async function deliver(topic: string, body: unknown, triggeredAt?: string): Promise<void> {
  const response = await fetch(signedWebhook({ topic, body, triggeredAt, url: `${server.origin}/webhooks/${topic}` }));
  const text = await response.text();
  expect(response.status, text).toBe(200);
  await deliveriesPlanned();
}

async function settled(orderIds: string[]): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const open = await prisma.job.count({ where: { status: { in: ["queued", "running"] } } });
    const records = await prisma.orderRecord.findMany({ where: { orderId: { in: orderIds } } });
    if (open === 0 && records.length === orderIds.length && records.every((r) => r.status !== "queued")) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the jobs did not settle within 20 s");
}

/** An order of 90.00, recorded, then two refunds (30.00 and 20.00) and its cancellation, triggered a second apart in that order. */
const refundsAndCancel = (orderId: bigint) => {
  // A minute ago: the app refuses deliveries triggered more than a day before they arrive.
  const start = Date.now() - 60_000;
  const at = (second: number) => new Date(start + second * 1_000).toISOString();
  return [
    ["refunds/create", shopifyRefund(orderId, ["30.00"], orderId + 1n), at(1)],
    ["refunds/create", shopifyRefund(orderId, ["20.00"], orderId + 2n), at(2)],
    ["orders/cancelled", shopifyOrder({ id: orderId, subtotal: "90.00", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), at(3)],
  ] as const;
};

async function outcome(orderId: bigint) {
  const record = await prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId: orderId.toString() } });
  const [commission] = await sandboxCommissions(sandbox, orderId.toString());
  return { status: record.status, refunds: JSON.parse(record.refunds ?? "{}"), revenue: commission?.revenue_amount, state: commission?.state };
}

describe("one order at a time, across worker processes", () => {
  it("applies two refunds and a cancellation delivered together exactly as if they came one after another", async () => {
    await connectShop(sandbox);
    startWorkers();
    const together = 5_640_000_100_000_001n;
    const oneByOne = 5_640_000_200_000_001n;
    for (const id of [together, oneByOne]) {
      await deliver("orders/paid", shopifyOrder({ id, subtotal: "90.00", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }));
    }
    await settled([together.toString(), oneByOne.toString()]);

    // GIVEN the same three webhooks for each order: all at once, last first, for one; one by one for the other
    await Promise.all([...refundsAndCancel(together)].reverse().map(([topic, body, triggeredAt]) => deliver(topic, body, triggeredAt)));
    for (const [topic, body, triggeredAt] of refundsAndCancel(oneByOne)) {
      await deliver(topic, body, triggeredAt);
      await settled([oneByOne.toString()]);
    }
    await settled([together.toString(), oneByOne.toString()]);

    // THEN both end the same: every refund counted, the commission denied
    const expected = await outcome(oneByOne);
    expect(expected).toMatchObject({ status: "reversed", revenue: "40.00", state: "denied" });
    expect(Object.keys(expected.refunds)).toHaveLength(2);
    expect(await outcome(together)).toEqual({ ...expected, refunds: { [`${together + 1n}`]: expect.anything(), [`${together + 2n}`]: expect.anything() } });
    expect(workers.every((worker) => worker.exitCode === null)).toBe(true);
  }, 60_000);
});
