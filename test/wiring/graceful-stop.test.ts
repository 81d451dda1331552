import "../entry/admin/browser-env";
import { request, Agent } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import prisma from "../../app/wiring/db.server";
import { sandboxAppEnv, startAppServer, type AppServer } from "../entry/admin/app-server";
import { shopifyOrder } from "../support/orders";
import { connectShop, sandboxCommissions, sandboxFaults, useTestSandbox } from "../support/pipeline";
import { signedWebhook } from "../support/shopify-requests";
import { PURGE_JOB_SHOP } from "../../app/domains/privacy/job-kinds";

// SIGTERM on the production server (a deploy, a scale-down): order webhooks
// are refused with 503 so that Shopify delivers them again, the service call
// under way finishes within the deadline (or its job is given back), exit 0.

const sandbox = useTestSandbox();
let server: AppServer | undefined;
afterEach(() => server?.stop());

const start = (env: Record<string, string>) =>
  startAppServer({ ...sandboxAppEnv(), WORKER_IN_PROCESS: "true", SERVICE_TIMEOUT_MS: "10000", ...env });

/** Posts a signed order webhook over one kept-alive connection, as Shopify's delivery does between deliveries. */
async function deliver(agent: Agent, origin: string, id: number): Promise<number> {
  const signed = signedWebhook({
    topic: "orders/paid",
    url: `${origin}/webhooks/orders/paid`,
    body: shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }),
  });
  const body = Buffer.from(await signed.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = request(signed.url, { method: "POST", agent, headers: Object.fromEntries(signed.headers) }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Until the stop has begun: an unsigned delivery (refused 401 and stored
 * nowhere while the server takes webhooks) is answered 503 once it stops
 * taking them, however long a busy machine takes to deliver the signal.
 */
async function untilRefusing(origin: string): Promise<void> {
  const status = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${origin}/webhooks/orders/paid`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      });
      req.on("error", reject);
      req.end("{}");
    });
  for (let i = 0; i < 400 && (await status()) !== 503; i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** The order's job running (the app-wide purge, queued at start, is not the shop's). */
async function untilRunning(): Promise<void> {
  const running = () => prisma.job.count({ where: { status: "running", shop: { not: PURGE_JOB_SHOP } } });
  for (let i = 0; i < 200 && (await running()) === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(await running()).toBe(1);
}

describe("SIGTERM", () => {
  it("refuses new order webhooks with 503, finishes the service call under way, and exits 0", async () => {
    await connectShop(sandbox);
    await sandboxFaults(sandbox, { latencyMs: 1_500, operations: ["event/record"] });
    server = await start({ SHUTDOWN_DEADLINE_MS: "10000" });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });

    expect(await deliver(agent, server.origin, 9_700_001)).toBe(200);
    await untilRunning();
    const exited = server.terminate();
    await untilRefusing(server.origin);
    expect(await deliver(agent, server.origin, 9_700_002)).toBe(503);

    expect(await exited).toBe(0);
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order.record" } })).toMatchObject({ status: "done", lockedBy: null });
    expect(await sandboxCommissions(sandbox, "9700001")).toHaveLength(1);
    expect(await prisma.orderRecord.count({ where: { orderId: "9700002" } })).toBe(0);
    agent.destroy();
  }, 30_000);

  it("gives the job back when its call outlasts the deadline, and still exits 0", async () => {
    await connectShop(sandbox);
    await sandboxFaults(sandbox, { latencyMs: 5_000, operations: ["event/record"] });
    server = await start({ SHUTDOWN_DEADLINE_MS: "300" });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });

    expect(await deliver(agent, server.origin, 9_700_003)).toBe(200);
    await untilRunning();
    const stopping = Date.now();
    expect(await server.terminate()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(4_000);
    // Due again at once, for the next process, with the interrupted attempt not counted.
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order.record" } })).toMatchObject({ status: "queued", lockedBy: null, leaseUntil: null, attempts: 0 });
    agent.destroy();
  }, 30_000);
});
