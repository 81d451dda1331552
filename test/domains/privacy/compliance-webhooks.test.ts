// The three compliance topics through their real routes, with requests signed
// as Shopify signs them: valid, forged, and for a shop the app does not know.
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { action as dataRequestAction } from "../../../app/routes/webhooks.customers.data_request";
import { action as customerRedactAction } from "../../../app/routes/webhooks.customers.redact";
import { action as shopRedactAction } from "../../../app/routes/webhooks.shop.redact";
import { shareLinksCacheKey } from "../../../app/domains/storefront/share-links.server";
import { appShareLinksDeps } from "../../../app/wiring/storefront-context.server";
import { resetDatabase } from "../../support/database";
import { testPipeline } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { routeArgs, signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

const OTHER_SHOP = "other-shop.myshopify.com";
const UNKNOWN_SHOP = "never-installed.myshopify.com";

type Action = (args: ReturnType<typeof routeArgs>) => Promise<Response>;

async function respond(action: Action, request: Request): Promise<Response> {
  try {
    return await action(routeArgs(request));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const customer = { id: 7_210_000_000_017, email: "jon_snow@example.com", phone: "+15556251199" };
const payloads = {
  "customers/data_request": (shop: string) => ({
    shop_id: 954_889,
    shop_domain: shop,
    orders_requested: [5_640_000_000_101],
    customer,
    data_request: { id: 9_901 },
  }),
  "customers/redact": (shop: string) => ({ shop_id: 954_889, shop_domain: shop, customer, orders_to_redact: [5_640_000_000_101] }),
  "shop/redact": (shop: string) => ({ shop_id: 954_889, shop_domain: shop }),
};
const actions: Record<keyof typeof payloads, Action> = {
  "customers/data_request": dataRequestAction,
  "customers/redact": customerRedactAction,
  "shop/redact": shopRedactAction,
};

let nextOrder = 5_640_000_000_100;
/** Jobs of a test's own making wait until tomorrow, so that only the redaction's job runs. */
const tomorrow = () => new Date(Date.now() + 86_400_000);
async function orderRecord(shop: string, data: { email?: string | null; customerId?: string | null; orderId?: string }) {
  return prisma.orderRecord.create({
    data: { shop, orderId: data.orderId ?? String(nextOrder++), email: data.email ?? null, customerId: data.customerId ?? null, status: "recorded" },
  });
}
async function serviceEvent(shop: string, emails: string[]) {
  return prisma.serviceEvent.create({
    data: {
      shop,
      eventId: String(nextOrder++),
      eventType: "commission-created",
      payload: JSON.stringify({ event_data: { referred_contact: { email: emails[0] } } }),
      emails: `,${emails.join(",")},`,
      signedForm: "raw",
    },
  });
}

/** What a shop holds, for before/after comparisons. */
async function holdings(shop: string) {
  return {
    shop: await prisma.shop.count({ where: { shop } }),
    sessions: await prisma.session.count({ where: { shop } }),
    orderRecords: await prisma.orderRecord.count({ where: { shop } }),
    serviceEvents: await prisma.serviceEvent.count({ where: { shop } }),
    dataRequests: await prisma.dataRequest.count({ where: { shop } }),
    jobs: await prisma.job.count({ where: { shop } }),
    payoutCredits: await prisma.payoutCredit.count({ where: { shop } }),
  };
}

beforeEach(resetDatabase);

/** customers/redact: the route answers, and the job it stored does the work, as a worker would run it. */
async function redact(request: Request): Promise<Response> {
  const response = await respond(customerRedactAction, request);
  await testPipeline().drain();
  return response;
}

/** The storefront's cached share links answer of one customer, primed as a visit would. */
const cachedLinks = {
  prime: (shop: string, customerId: string) =>
    appShareLinksDeps().answers.getOrLoad(shareLinksCacheKey(shop, customerId), async () => ({ status: "not_enrolled", reason: "not_member", message: "x" })),
  has: (shop: string, customerId: string) => appShareLinksDeps().answers.peek(shareLinksCacheKey(shop, customerId)) !== undefined,
};

describe.each(Object.keys(payloads) as (keyof typeof payloads)[])("webhooks/%s", (topic) => {
  it("answers 200 to a valid request", async () => {
    await installShop();
    await prisma.shop.create({ data: { shop: TEST_SHOP } });
    const response = await respond(actions[topic], signedWebhook({ topic, body: payloads[topic](TEST_SHOP) }));
    expect(response.status).toBe(200);
  });

  it("answers 401 to a forged signature and changes nothing", async () => {
    await installShop();
    await prisma.shop.create({ data: { shop: TEST_SHOP } });
    await orderRecord(TEST_SHOP, { email: customer.email });
    const before = await holdings(TEST_SHOP);

    const forged = signedWebhook({ topic, body: payloads[topic](TEST_SHOP), secret: "not-the-app-secret" });
    const response = await respond(actions[topic], forged);

    expect(response.status).toBe(401);
    expect(await holdings(TEST_SHOP)).toEqual(before);
    expect(await prisma.redactionLog.count()).toBe(0);
  });

  it("answers 200 for a shop the app does not know (no session, no settings)", async () => {
    const response = await respond(actions[topic], signedWebhook({ topic, shop: UNKNOWN_SHOP, body: payloads[topic](UNKNOWN_SHOP) }));
    expect(response.status).toBe(200);
  });
});

describe("customers/data_request", () => {
  it("stores the request with its job once, however often Shopify delivers it", async () => {
    const body = payloads["customers/data_request"](TEST_SHOP);
    await respond(dataRequestAction, signedWebhook({ topic: "customers/data_request", body }));
    await respond(dataRequestAction, signedWebhook({ topic: "customers/data_request", body }));

    const requests = await prisma.dataRequest.findMany();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ shop: TEST_SHOP, requestId: "9901", email: "jon_snow@example.com", customerId: "7210000000017", status: "open" });
    expect(JSON.parse(requests[0].ordersRequested)).toEqual(["5640000000101"]);
    expect(await prisma.job.count({ where: { kind: "privacy.export" } })).toBe(1);
  });
});

describe("customers/redact", () => {
  it("deletes exactly that customer's rows, and nothing of another customer or shop", async () => {
    // GIVEN jon's rows (by email in another letter case, by customer id, by an order named in the request) ...
    const byEmail = await orderRecord(TEST_SHOP, { email: "Jon_Snow@Example.com" });
    await orderRecord(TEST_SHOP, { customerId: String(customer.id) });
    await orderRecord(TEST_SHOP, { orderId: "5640000000101", email: "gift@example.com" });
    const jonEvent = await serviceEvent(TEST_SHOP, ["alice@example.com", "jon_snow@example.com"]);
    await prisma.dataRequest.create({ data: { shop: TEST_SHOP, email: "jon_snow@example.com", status: "ready", report: "{}" } });
    await prisma.payoutCredit.create({
      data: { shop: TEST_SHOP, payoutId: "12", serviceEventId: jonEvent.id, email: "jon_snow@example.com", amount: "5.00", state: "credited" },
    });
    await prisma.job.createMany({
      data: [
        { shop: TEST_SHOP, kind: "order.record", key: `${TEST_SHOP}:order.record:${byEmail.orderId}`, payload: "{}", status: "failed" },
        { shop: TEST_SHOP, kind: "order.refund", key: `${TEST_SHOP}:order.refund:${byEmail.orderId}:77`, payload: "{}", runAt: tomorrow() },
        { shop: TEST_SHOP, kind: "service-event.process", key: `${TEST_SHOP}:service-event.process:${jonEvent.id}`, payload: "{}", status: "done" },
      ],
    });
    // ... another customer of the shop (one whose email differs from jon's only where jon's has "_") ...
    const ann = await orderRecord(TEST_SHOP, { email: "ann@example.com", customerId: "42" });
    await serviceEvent(TEST_SHOP, ["jonxsnow@example.com"]);
    await prisma.dataRequest.create({ data: { shop: TEST_SHOP, email: "ann@example.com" } });
    await prisma.job.create({ data: { shop: TEST_SHOP, kind: "order.record", key: `${TEST_SHOP}:order.record:${ann.orderId}`, payload: "{}", runAt: tomorrow() } });
    // ... and jon at another shop, even with the same order id
    await orderRecord(OTHER_SHOP, { email: "jon_snow@example.com", customerId: String(customer.id), orderId: byEmail.orderId });
    await serviceEvent(OTHER_SHOP, ["jon_snow@example.com"]);
    await prisma.dataRequest.create({ data: { shop: OTHER_SHOP, email: "jon_snow@example.com" } });
    const otherBefore = await holdings(OTHER_SHOP);
    await cachedLinks.prime(TEST_SHOP, String(customer.id));
    await cachedLinks.prime(TEST_SHOP, "42");
    await cachedLinks.prime(OTHER_SHOP, String(customer.id));

    // WHEN Shopify asks to redact jon
    const response = await redact(signedWebhook({ topic: "customers/redact", body: payloads["customers/redact"](TEST_SHOP) }));

    // THEN jon's rows are gone at this shop
    expect(response.status).toBe(200);
    expect(await prisma.orderRecord.findMany({ where: { shop: TEST_SHOP }, select: { email: true } })).toEqual([{ email: "ann@example.com" }]);
    // Jon's event stays without Jon (its event_id still refuses a replay); jonxsnow's is untouched.
    const events = await prisma.serviceEvent.findMany({ where: { shop: TEST_SHOP }, orderBy: { emails: "asc" } });
    expect(events.map((e) => [e.eventId, e.emails, e.payload.includes("@")])).toEqual([
      [jonEvent.eventId, ",", false],
      [expect.any(String), ",jonxsnow@example.com,", true],
    ]);
    expect((await prisma.dataRequest.findMany({ where: { shop: TEST_SHOP } })).map((r) => r.email)).toEqual(["ann@example.com"]);
    expect((await prisma.job.findMany({ where: { shop: TEST_SHOP, kind: { not: "privacy.customer-redact" } } })).map((j) => j.key)).toEqual([`${TEST_SHOP}:order.record:${ann.orderId}`]);
    // the payout stays claimed (a replay must not pay twice) but no longer names jon
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ payoutId: "12", email: "", state: "credited" });
    // his cached share links are gone from the storefront's cache, no one else's
    expect([cachedLinks.has(TEST_SHOP, String(customer.id)), cachedLinks.has(TEST_SHOP, "42"), cachedLinks.has(OTHER_SHOP, String(customer.id))]).toEqual([
      false,
      true,
      true,
    ]);
    // nothing changed at the other shop
    expect(await holdings(OTHER_SHOP)).toEqual(otherBefore);
    // AND it is recorded without the personal data
    const [log] = await prisma.redactionLog.findMany();
    expect(log).toMatchObject({ shop: TEST_SHOP, serviceState: "not_connected", pendingEmailSealed: null, completedAt: expect.any(Date) });
    expect(JSON.parse(log.deleted)).toEqual({ orderRecords: 3, serviceEvents: 1, dataRequests: 1, jobs: 3, storeCredits: 1, flowActionRuns: 0, mentionsRemoved: 0 });
    expect(log.subjectHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(log)).not.toMatch(/jon_snow|7210000000017/i);
  });
});

describe("customers/redact while the shop's jobs are paused", () => {
  it("still erases the person: the redaction is local work, which a pause (refused credentials) does not hold", async () => {
    // GIVEN jon's order, and a redaction queued for a minute from now
    await installShop();
    await prisma.shop.create({ data: { shop: TEST_SHOP } });
    await orderRecord(TEST_SHOP, { email: customer.email, orderId: "5640000000101" });
    await respond(customerRedactAction, signedWebhook({ topic: "customers/redact", body: payloads["customers/redact"](TEST_SHOP) }));
    await prisma.job.updateMany({ where: { kind: "privacy.customer-redact" }, data: { runAt: new Date(Date.now() + 60_000) } });
    // ... and an order job that finds the shop not connected, so it pauses the shop's queued jobs
    const event = { campaignUids: ["1001"], params: { email: "ann@example.com", transactionUid: "5640000000555" } };
    await prisma.job.create({ data: { shop: TEST_SHOP, kind: "order.record", key: `${TEST_SHOP}:order.record:5640000000555`, payload: JSON.stringify({ orderId: "5640000000555", event }) } });
    const pipeline = testPipeline();
    await pipeline.drain();
    expect((await prisma.job.findMany({ orderBy: { kind: "asc" } })).map((j) => [j.kind, j.status])).toEqual([
      ["order.record", "paused"],
      ["privacy.customer-redact", "queued"],
    ]);

    // WHEN its time comes
    pipeline.advance(61_000);
    await pipeline.drain();

    // THEN jon is gone, though the shop's other jobs still wait for credentials
    expect(await prisma.orderRecord.count({ where: { email: customer.email } })).toBe(0);
    expect(await prisma.redactionLog.count()).toBe(1);
  });
});

describe("customers/redact with Shopify's 64-bit ids", () => {
  it("finds the customer and the orders by their exact ids, which JSON.parse would round", async () => {
    // 115310627314723954 and 820982911946154508 become ...950 and ...500 as JavaScript numbers.
    await orderRecord(TEST_SHOP, { customerId: "115310627314723954", email: "long@example.com" });
    await orderRecord(TEST_SHOP, { orderId: "820982911946154508", email: "gift@example.com" });
    await orderRecord(TEST_SHOP, { customerId: "115310627314723950", email: "neighbour@example.com" });
    await orderRecord(TEST_SHOP, { orderId: "820982911946154500", email: "other@example.com" });
    const raw = `{"shop_id":954889,"shop_domain":"${TEST_SHOP}","customer":{"id":115310627314723954,"email":"long@example.com","phone":null},"orders_to_redact":[820982911946154508]}`;

    const response = await redact(signedWebhook({ topic: "customers/redact", body: null, raw }));

    expect(response.status).toBe(200);
    const left = await prisma.orderRecord.findMany({ where: { shop: TEST_SHOP }, select: { email: true }, orderBy: { email: "asc" } });
    expect(left.map((r) => r.email)).toEqual(["neighbour@example.com", "other@example.com"]);
  });
});

describe("shop/redact", () => {
  it("deletes everything the app keeps for the shop, and only for that shop", async () => {
    for (const shop of [TEST_SHOP, OTHER_SHOP]) {
      await installShop(shop);
      await prisma.shop.create({ data: { shop, serviceUsername: "demo", serviceTokenSealed: "v1.sealed", inboundWebhookId: `endpoint-${shop}`.slice(0, 30) } });
      const record = await orderRecord(shop, { email: "jon@example.com" });
      const event = await serviceEvent(shop, ["jon@example.com"]);
      await prisma.dataRequest.create({ data: { shop, email: "jon@example.com" } });
      await prisma.redactionLog.create({ data: { shop, subjectHash: "x", deleted: "{}", serviceState: "done" } });
      await prisma.payoutCredit.create({ data: { shop, payoutId: "1", serviceEventId: event.id, email: "jon@example.com", amount: "1.00" } });
      await prisma.job.create({ data: { shop, kind: "order.record", key: `${shop}:order.record:${record.orderId}`, payload: "{}" } });
      await prisma.couponBuyer.create({ data: { shop, code: "ALICE-15", buyerKey: "k", lastUsedAt: new Date(), orderId: record.orderId } });
      await prisma.leakedCode.create({ data: { shop, code: "ALICE-15", referrerEmail: "alice@example.com", flaggedAt: new Date(), buyers: 6, windowDays: 7, heldFrom: new Date(), orderId: record.orderId } });
    }
    const otherBefore = await holdings(OTHER_SHOP);
    await cachedLinks.prime(TEST_SHOP, "1");
    await cachedLinks.prime(OTHER_SHOP, "1");

    const response = await respond(shopRedactAction, signedWebhook({ topic: "shop/redact", body: payloads["shop/redact"](TEST_SHOP) }));

    expect(response.status).toBe(200);
    expect(await holdings(TEST_SHOP)).toEqual({ shop: 0, sessions: 0, orderRecords: 0, serviceEvents: 0, dataRequests: 0, jobs: 0, payoutCredits: 0 });
    expect(await prisma.redactionLog.count({ where: { shop: TEST_SHOP } })).toBe(0);
    expect(await holdings(OTHER_SHOP)).toEqual(otherBefore);
    expect(await prisma.redactionLog.count({ where: { shop: OTHER_SHOP } })).toBe(1);
    // Leaked codes: the buyers counted and the flags
    expect([await prisma.couponBuyer.count({ where: { shop: TEST_SHOP } }), await prisma.leakedCode.count({ where: { shop: TEST_SHOP } })]).toEqual([0, 0]);
    expect([await prisma.couponBuyer.count({ where: { shop: OTHER_SHOP } }), await prisma.leakedCode.count({ where: { shop: OTHER_SHOP } })]).toEqual([1, 1]);
    expect([cachedLinks.has(TEST_SHOP, "1"), cachedLinks.has(OTHER_SHOP, "1")]).toEqual([false, true]);
  });
});
