import "../admin/browser-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { sandboxAppEnv, startAppServer, type AppServer } from "../admin/app-server";
import { shopifyOrder } from "../../support/orders";
import { clearSandboxFaults, connectShop, sandboxCommissions, sandboxFaults, useTestSandbox } from "../../support/pipeline";
import { signedWebhook } from "../../support/shopify-requests";

// The production server with its worker in the process (the default set-up),
// while the referral service is slower than the client's timeout: the calls
// are aborted, and the process stays up, answering and retrying.

const sandbox = useTestSandbox();
let server: AppServer;

beforeAll(async () => {
  server = await startAppServer({
    ...sandboxAppEnv(),
    WORKER_IN_PROCESS: "true",
    SERVICE_TIMEOUT_MS: "300",
    JOB_RETRY_BASE_MS: "200",
  });
}, 60_000);

afterAll(() => server?.stop());

const until = async (what: string, check: () => Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const deliver = (id: number) =>
  fetch(
    signedWebhook({
      topic: "orders/paid",
      url: `${server.origin}/webhooks/orders/paid`,
      body: shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }),
    }),
  );

describe("a referral service slower than the client's timeout", () => {
  it("aborts the calls, keeps the process up and answering, and records the order once the service is quick again", async () => {
    await connectShop(sandbox);
    await sandboxFaults(sandbox, { latencyMs: 1_500, operations: ["event/record"] });

    expect((await deliver(9_600_001)).status).toBe(200);
    // Two calls in a row run into the timeout and are aborted mid-request.
    await until("two timed-out attempts", async () => (await prisma.job.findFirst())?.attempts === 2);
    expect((await prisma.job.findFirstOrThrow()).lastError).toMatch(/no complete answer within 300 ms/);

    expect(server.exitCode()).toBeNull();
    expect((await deliver(9_600_002)).status).toBe(200);
    expect((await fetch(`${server.origin}/auth/login`, { redirect: "manual" })).status).toBeLessThan(500);

    await clearSandboxFaults(sandbox);
    await until("both orders recorded", async () => (await prisma.orderRecord.count({ where: { status: "recorded" } })) === 2);
    expect(await sandboxCommissions(sandbox, "9600001")).toHaveLength(1);
    expect(await sandboxCommissions(sandbox, "9600002")).toHaveLength(1);
    // Node's own fetch: an aborted call is an ordinary failure, not a stray rejection logged by the guard.
    expect(server.output()).not.toMatch(/Cannot cancel a stream|unhandled/i);
    expect(server.exitCode()).toBeNull();
  }, 60_000);
});
