// customers/redact reaching the referral service: compliance/remove with
// confirm=1 as a retried job, and a record of it that keeps no personal data.
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { runCustomerRedact } from "../../../app/domains/privacy/redact-customer.server";
import { action } from "../../../app/routes/webhooks.customers.redact";
import { clearSandboxFaults, connectShop, sandboxFaults, sandboxRequests, testPipeline, type TestPipeline, useTestSandbox } from "../../support/pipeline";
import { routeArgs, signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

const sandbox = useTestSandbox();
let pipeline: TestPipeline;

beforeEach(async () => {
  await clearSandboxFaults(sandbox);
  pipeline = testPipeline();
});

async function redact(email: string | null, customer: { id?: number; phone?: string | null } = {}) {
  const body = { shop_id: 954_889, shop_domain: TEST_SHOP, customer: { id: customer.id ?? 7_210_000_000_099, email, phone: customer.phone ?? null }, orders_to_redact: [] };
  const response = await action(routeArgs(signedWebhook({ topic: "customers/redact", body })));
  expect(response.status).toBe(200);
  // The request queued the redaction; its job runs here alone, so that the erasure at the service it queues waits for the test's drain.
  const job = await prisma.job.findFirstOrThrow({ where: { kind: "privacy.customer-redact", status: "queued" } });
  await runCustomerRedact(pipeline.ctx, TEST_SHOP, JSON.parse(job.payload), null);
  await prisma.job.delete({ where: { id: job.id } });
  return prisma.redactionLog.findFirstOrThrow({ where: { shop: TEST_SHOP }, orderBy: { requestedAt: "desc" } });
}

async function serviceKnows(email: string): Promise<boolean> {
  const response = await fetch(`${sandbox.baseUrl}/api/v2/${sandbox.username}/${sandbox.token}/json/ambassador/get/?email=${encodeURIComponent(email)}`);
  return response.status === 200;
}

describe("erasure at the referral service", () => {
  it("erases the person at the service with confirm=1, then forgets the email", async () => {
    await connectShop(sandbox);
    expect(await serviceKnows("dan@example.com")).toBe(true);

    const pending = await redact("Dan@Example.com");
    expect(pending).toMatchObject({ serviceState: "pending", completedAt: null });
    expect(pending.pendingEmailSealed).toBeTruthy();
    expect(pending.pendingEmailSealed).not.toContain("dan");

    await pipeline.drain();

    expect(await serviceKnows("dan@example.com")).toBe(false);
    // The sandbox refuses compliance/remove without confirm=1, so one 200 means it was sent.
    expect(await sandboxRequests(sandbox, "compliance/remove")).toEqual([expect.objectContaining({ method: "POST", status: 200 })]);
    const done = await prisma.redactionLog.findUniqueOrThrow({ where: { id: pending.id } });
    expect(done).toMatchObject({ serviceState: "done", pendingEmailSealed: null, completedAt: expect.any(Date) });
    expect(JSON.stringify(done)).not.toMatch(/dan/i);
  });

  it("erases a customer without an email under the address their orders were recorded with (decision 033)", async () => {
    await connectShop(sandbox);
    // A POS sale of a phone-only customer was recorded as this address.
    const madeUp = "shopify-customer-7210000000444@no-email.invalid";
    await fetch(`${sandbox.baseUrl}/api/v2/${sandbox.username}/${sandbox.token}/json/ambassador/get/?email=${encodeURIComponent(madeUp)}&auto_create=1`);
    expect(await serviceKnows(madeUp)).toBe(true);

    const pending = await redact(null, { id: 7_210_000_000_444, phone: "+15555550123" });
    expect(pending).toMatchObject({ serviceState: "pending" });
    await pipeline.drain();

    expect(await serviceKnows(madeUp)).toBe(false);
    expect(await prisma.redactionLog.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({ serviceState: "done" });
  });

  it("retries when the service is down, and shows why meanwhile", async () => {
    await connectShop(sandbox);
    await sandboxFaults(sandbox, { failNext: 1, operations: ["compliance/remove"] });
    const pending = await redact("dan@example.com");

    await pipeline.drain();
    expect(await prisma.redactionLog.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({
      serviceState: "pending",
      serviceDetail: expect.stringMatching(/^Will retry: /),
    });
    expect(await serviceKnows("dan@example.com")).toBe(true);

    pipeline.advance(10 * 60_000);
    await pipeline.drain();
    expect(await prisma.redactionLog.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({ serviceState: "done" });
    expect(await serviceKnows("dan@example.com")).toBe(false);
  });

  it("leaves the service alone when the shop turned it off", async () => {
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { redactAtService: false } });

    const log = await redact("dan@example.com");
    await pipeline.drain();

    expect(log).toMatchObject({ serviceState: "not_requested", pendingEmailSealed: null });
    expect(await prisma.job.count({ where: { kind: "privacy.redact" } })).toBe(0);
    expect(await serviceKnows("dan@example.com")).toBe(true);
  });
});
