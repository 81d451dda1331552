import "../admin/browser-env";
import { afterEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { sandboxAppEnv, startAppServer, type AppServer } from "../admin/app-server";
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
  }, 60_000);
});
