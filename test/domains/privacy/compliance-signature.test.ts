import "../../entry/admin/browser-env";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startTestAppServer, type AppServer } from "../../entry/admin/app-server";
import { resetDatabase } from "../../support/database";
import { testPipeline } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

// The compliance topics through the served build, as Shopify's review tests
// them: the signature is checked before anything else, and customers/redact
// answers at once and leaves its work to a job.

let server: AppServer;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);

afterAll(() => server?.stop());

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

const customer = { id: 7_210_000_000_017, email: "jon_snow@example.com", phone: "+15556251199" };
const bodies = {
  "customers/data_request": { shop_id: 954_889, shop_domain: TEST_SHOP, orders_requested: [5_640_000_000_101], customer, data_request: { id: 9_901 } },
  "customers/redact": { shop_id: 954_889, shop_domain: TEST_SHOP, customer, orders_to_redact: [5_640_000_000_101] },
  "shop/redact": { shop_id: 954_889, shop_domain: TEST_SHOP },
};
type Topic = keyof typeof bodies;
const TOPICS = Object.keys(bodies) as Topic[];

const twoDaysAgo = () => new Date(Date.now() - 2 * 24 * 3600_000).toISOString();

async function deliver(topic: Topic, options: Partial<Parameters<typeof signedWebhook>[0]> = {}, change: (headers: Headers) => void = () => undefined) {
  const signed = signedWebhook({ topic, body: bodies[topic], ...options, url: `${server.origin}/webhooks/${topic}` });
  const headers = new Headers(signed.headers);
  change(headers);
  return fetch(signed.url, { method: "POST", headers, body: await signed.text() });
}

/** What the shop holds, to see that a refused delivery changed nothing. */
async function holdings() {
  return {
    shops: await prisma.shop.count(),
    orderRecords: await prisma.orderRecord.count(),
    dataRequests: await prisma.dataRequest.count(),
    redactionLogs: await prisma.redactionLog.count(),
    jobs: await prisma.job.count(),
  };
}

describe("a compliance webhook's signature comes first", () => {
  it.each(TOPICS)("%s: a bad or missing signature is 401 even when the delivery is also stale or for another topic", async (topic) => {
    await prisma.shop.create({ data: { shop: TEST_SHOP } });
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "5640000000101", email: customer.email, status: "recorded" } });
    const before = await holdings();

    const answers = {
      badAndStale: (await deliver(topic, { secret: "not-the-app-secret", triggeredAt: twoDaysAgo() })).status,
      badForAnotherTopic: (await deliver(topic, { secret: "not-the-app-secret" }, (h) => h.set("X-Shopify-Topic", "orders/paid"))).status,
      unsignedAndStale: (await deliver(topic, { triggeredAt: twoDaysAgo() }, (h) => h.delete("X-Shopify-Hmac-Sha256"))).status,
      signedTwiceAndStale: (
        await deliver(topic, { triggeredAt: twoDaysAgo() }, (h) => h.set("X-Shopify-Hmac-Sha256", `${h.get("X-Shopify-Hmac-Sha256")}, ${h.get("X-Shopify-Hmac-Sha256")}`))
      ).status,
      badWithoutShopHeaders: (await deliver(topic, { secret: "not-the-app-secret" }, (h) => ["X-Shopify-Shop-Domain", "X-Shopify-Api-Version"].forEach((n) => h.delete(n)))).status,
    };

    expect(answers).toEqual({ badAndStale: 401, badForAnotherTopic: 401, unsignedAndStale: 401, signedTwiceAndStale: 401, badWithoutShopHeaders: 401 });
    expect(await holdings()).toEqual(before);
  });

  it.each(TOPICS)("%s: a signed delivery is then held to its trigger time and topic (400)", async (topic) => {
    const stale = await deliver(topic, { triggeredAt: twoDaysAgo() });
    const otherTopic = await deliver(topic, {}, (h) => h.set("X-Shopify-Topic", "orders/paid"));
    expect([stale.status, otherTopic.status]).toEqual([400, 400]);
    expect(await prisma.job.count()).toBe(0);
  });
});

describe("customers/redact answers at once; a job removes the person", () => {
  it("stores one job for a request delivered twice, answers 200 before any row is touched, and the job then erases the person once", async () => {
    // GIVEN jon's rows, among another customer's, in a shop with some history
    await prisma.shop.create({ data: { shop: TEST_SHOP } });
    await prisma.orderRecord.createMany({
      data: Array.from({ length: 2_000 }, (_, i) => ({ shop: TEST_SHOP, orderId: String(6_000_000_000_000 + i), email: `buyer-${i}@example.com`, status: "not_referred" })),
    });
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "5640000000101", email: "gift@example.com", status: "recorded" } });
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "5640000000102", email: "Jon_Snow@Example.com", customerId: String(customer.id), status: "recorded" } });
    await prisma.dataRequest.create({ data: { shop: TEST_SHOP, email: customer.email, status: "ready", report: "{}" } });

    // WHEN Shopify delivers the request, and delivers it again
    const started = performance.now();
    const first = await deliver("customers/redact", { webhookId: "wh-redact-1" });
    const tookMs = performance.now() - started;
    const again = await deliver("customers/redact", { webhookId: "wh-redact-1" });

    // THEN both are answered, nothing is erased yet, and one sealed job waits
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(tookMs).toBeLessThan(2_000);
    expect(await prisma.orderRecord.count({ where: { orderId: { in: ["5640000000101", "5640000000102"] } } })).toBe(2);
    const jobs = await prisma.job.findMany();
    expect(jobs.map((j) => [j.kind, j.status])).toEqual([["privacy.customer-redact", "queued"]]);
    // (The whole address, not "jon": three letters turn up by chance in a random sealed value, as "sjON" once did.)
    expect(jobs[0]!.payload).not.toMatch(/jon_snow|7210000000017/i);

    // WHEN a worker runs the queue
    await testPipeline().drain();

    // THEN jon is gone, once, and nobody else
    expect(await prisma.orderRecord.count({ where: { orderId: { in: ["5640000000101", "5640000000102"] } } })).toBe(0);
    expect(await prisma.orderRecord.count({ where: { shop: TEST_SHOP } })).toBe(2_000);
    expect(await prisma.dataRequest.count()).toBe(0);
    const logs = await prisma.redactionLog.findMany();
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0]!.deleted)).toMatchObject({ orderRecords: 2, dataRequests: 1 });
    expect(await prisma.job.findMany({ select: { kind: true, status: true } })).toEqual([{ kind: "privacy.customer-redact", status: "done" }]);
  }, 30_000);
});
