import "../admin/browser-env";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startTestAppServer, type AppServer } from "../admin/app-server";
import { resetDatabase } from "../../support/database";
import { expectServedError } from "../../support/served-output";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned, expectUnreadable } from "../../support/kept-deliveries";

// The order webhooks as production serves them: the built app under
// server.mjs, whose SQLite intake plans and stores each batch in its own
// thread, started from the project's source next to the build.

let server: AppServer;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);

afterAll(() => server?.stop());

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

/** A delivery's answer, once what the app accepted is planned. */
async function deliver(options: Parameters<typeof signedWebhook>[0]): Promise<Response> {
  const response = await fetch(signedWebhook({ ...options, url: `${server.origin}/webhooks/${options.topic}` }));
  await deliveriesPlanned();
  return response;
}

const referred = (id: number) => shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });

describe("order webhooks on the production server", () => {
  it("stores a signed order once, however often it is delivered, and refuses a forged one", async () => {
    const deliveries = await Promise.all(Array.from({ length: 5 }, () => deliver({ topic: "orders/paid", body: referred(31_000), webhookId: "wh-31000" })));
    expect(deliveries.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const forged = await deliver({ topic: "orders/paid", body: referred(31_001), secret: "not-the-app-secret" });
    expect(forged.status).toBe(401);

    const jobs = await prisma.job.findMany();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: "order.record", key: `${TEST_SHOP}:order.record:31000`, status: "queued", webhookId: "wh-31000" });
    expect(JSON.parse(jobs[0]!.payload)).toMatchObject({ orderId: "31000", event: { signals: { cartAttribute: "ALICE10" }, params: { email: "buyer-31000@example.com" } } });
    expect(await prisma.orderRecord.findFirstOrThrow()).toMatchObject({ orderId: "31000", status: "queued", shortCode: "ALICE10" });
  });

  it("refuses a payload it cannot read, saying why, and stores nothing", async () => {
    expectServedError(/"msg":"malformed webhook payload"/);
    const response = await deliver({ topic: "orders/paid", body: { ...referred(31_002), note_attributes: [{ name: 7 }] } });
    await expectUnreadable(response, /note_attributes\.0\.name: expected text/);
    expect(await prisma.job.count()).toBe(0);
    // The app's error line for it is read within this test, not the next one's.
    await expect.poll(() => server.output()).toMatch(/note_attributes\.0\.name: expected text/);
  });

  it("keeps each webhook's own outcome in a batch of many shops' and topics' deliveries", async () => {
    await installShop("second-shop.myshopify.com");
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => deliver({ topic: "orders/paid", body: referred(32_000 + i) })),
      ...Array.from({ length: 10 }, (_, i) => deliver({ topic: "orders/paid", shop: "second-shop.myshopify.com", body: referred(33_000 + i) })),
      deliver({ topic: "orders/paid", shop: "not-installed.myshopify.com", body: referred(34_000) }),
      deliver({ topic: "orders/cancelled", body: { id: 32_000 } }),
    ]);
    // A shop without the app is refused on its headers, the others taken.
    expect(answers.map((r) => r.status)).toEqual([...Array.from({ length: 40 }, () => 200), 403, 200]);
    expect(await prisma.job.count({ where: { shop: TEST_SHOP, kind: "order.record" } })).toBe(30);
    expect(await prisma.job.count({ where: { shop: "second-shop.myshopify.com" } })).toBe(10);
    expect(await prisma.job.count({ where: { shop: "not-installed.myshopify.com" } })).toBe(0);
    expect(await prisma.job.count({ where: { kind: "order.cancel" } })).toBe(1);
  });
});
