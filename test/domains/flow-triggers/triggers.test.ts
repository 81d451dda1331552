// The Flow triggers from each place the app learns their event, below the
// served build: the payload builders (pure), the job that sends them through
// the Admin stand-in (Shopify's 2026-10 schema validates the document), and
// each domain's call queuing the trigger once per event, only with Flow on.
import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { createTtlCache } from "../../../app/platform/cache/ttl-cache";
import { shopClient } from "../../../app/domains/connection/shop-client.server";
import { decideCommission } from "../../../app/entry/admin/commissions.server";
import { FLOW_TRIGGER_JOB } from "../../../app/domains/flow-triggers/job-kinds";
import { enrolmentKey, rekeyEnrolmentTriggers } from "../../../app/domains/flow-triggers/queue-trigger.server";
import { sendFlowTrigger } from "../../../app/domains/flow-triggers/send-trigger.server";
import {
  ambassadorEnrolled,
  commissionDecided,
  FLOW_PAYLOAD_LIMIT_BYTES,
  FLOW_TRIGGER_HANDLES,
  payloadBytes,
  payoutStoreCredit,
  referralCodeLeaked,
  referenceId,
  referralBlocked,
  referralCredited,
  type FlowTrigger,
} from "../../../app/domains/flow-triggers/triggers";
import { applyCommissionEvent } from "../../../app/domains/service-events/commission-events.server";
import { applyContactCreated } from "../../../app/domains/service-events/contact-events.server";
import { redactCustomer } from "../../../app/domains/privacy/redact-customer.server";
import { loadShareLinks } from "../../../app/domains/storefront/share-links.server";
import { connectShop, shopServiceClient, testPipeline, useTestSandbox } from "../../support/pipeline";
import { cancelOrder, receiveOrder, recordOf } from "../../entry/admin/fixtures";
import { recheckOrder } from "../../../app/entry/admin/activity.server";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { appFlowTriggers } from "../../support/standin-flow";
import { TEST_SHOP } from "../../support/shopify-requests";

const LONG = "x".repeat(200_000);
const SECRET = "test-api-secret";

/** One of each trigger, with every field filled (and overlong text). */
function everyTrigger(text = "a"): FlowTrigger[] {
  return [
    referralCredited({ orderId: "6412347889123", customerId: "gid://shopify/Customer/7012345678901", referrerEmail: `${text}@example.com`, code: text, campaign: text, revenue: "90.00", commission: "9.00" }),
    commissionDecided({ state: "approved", orderId: "6412347889123", referrerEmail: "alice@example.com", campaign: text, by: "merchant" }),
    commissionDecided({ state: "denied", orderId: "6412347889123", referrerEmail: "alice@example.com", campaign: "1001", by: "referral service", reason: text }),
    ambassadorEnrolled({ customerId: "7012345678901", email: "ann@example.com", shareLink: `https://refer.example/${text}`, how: "thank_you" }),
    referralBlocked({ orderId: "6412347889123", customerId: "7012345678901", rule: "self_email", reason: text, code: "ALICE-15" }),
    payoutStoreCredit({ customerId: "gid://shopify/Customer/7012345678901", email: "alice@example.com", amount: "12.50", currency: "EUR", payoutId: text }),
    referralCodeLeaked({ code: text, ambassadorEmail: "alice@example.com", buyers: 6, windowDays: 7 }),
  ];
}

describe("the payloads", () => {
  it("carry exactly the fields each trigger's TOML declares, for all seven", () => {
    const declared = appFlowTriggers();
    const triggers = everyTrigger();
    expect(new Set(triggers.map((t) => t.handle))).toEqual(new Set(Object.values(FLOW_TRIGGER_HANDLES)));
    expect(new Set(declared.keys())).toEqual(new Set(Object.values(FLOW_TRIGGER_HANDLES)));
    for (const trigger of triggers) expect(new Set(Object.keys(trigger.payload)), trigger.handle).toEqual(declared.get(trigger.handle));
  });

  it("stay under Shopify's 50 KB however long the texts they carry", () => {
    for (const trigger of everyTrigger(LONG)) expect(payloadBytes(trigger.payload), trigger.handle).toBeLessThan(FLOW_PAYLOAD_LIMIT_BYTES);
  });

  it.each([
    ["6412347889123", 6412347889123],
    ["gid://shopify/Order/6412347889123", 6412347889123],
    ["9007199254740993", "9007199254740993"],
    ["gid://shopify/Customer/0000123", 123],
    ["", undefined],
    [null, undefined],
    ["0", undefined],
    ["abc", undefined],
  ])("read the reference id %s as %s", (id, expected) => {
    expect(referenceId(id)).toEqual(expected);
  });

  it("say how a commission was decided and why it was denied", () => {
    expect(commissionDecided({ state: "denied", orderId: "1", by: "merchant", reason: "Order cancelled" })).toEqual({
      handle: "commission-denied",
      payload: { order_id: 1, "Referrer email": "", Campaign: "", "Denied by": "merchant", Reason: "Order cancelled" },
    });
  });
});

describe("the flow.trigger job, against the Admin stand-in", () => {
  const ctx = (shopify: ShopifyAdminStandIn) => ({ db: prisma, logger: createLogger({ level: "silent" }), now: () => new Date(), adminForShop: shopify.access() });
  const job = { externalWrite: <T>(write: () => Promise<T>) => write() };

  it("sends each trigger with a document Shopify's schema accepts", async () => {
    const shopify = new ShopifyAdminStandIn();
    for (const trigger of everyTrigger()) {
      expect(await sendFlowTrigger(ctx(shopify), TEST_SHOP, FLOW_TRIGGER_JOB.payload.parse(trigger), job)).toEqual({ type: "done" });
    }
    expect(shopify.callsOf("ReferralBridgeFlowTrigger").map((c) => c.outcome)).toEqual(Array(everyTrigger().length).fill("ok"));
    expect(shopify.flow.received.map((r) => r.handle)).toEqual(everyTrigger().map((t) => t.handle));
    for (const received of shopify.flow.received) console.log(`stand-in received ${received.handle}:`, JSON.stringify(received.payload));
  });

  it("stops with Shopify's userErrors for an unknown handle or an oversize payload", async () => {
    const shopify = new ShopifyAdminStandIn();
    expect(await sendFlowTrigger(ctx(shopify), TEST_SHOP, { handle: "referral-creditted", payload: {} }, job)).toMatchObject({
      type: "fail",
      reason: expect.stringContaining("is not valid"),
    });
    expect(await sendFlowTrigger(ctx(shopify), TEST_SHOP, { handle: "referral-blocked", payload: { Reason: LONG } }, job)).toMatchObject({
      type: "fail",
      reason: expect.stringContaining("50 KB"),
    });
    expect(shopify.flow.received).toEqual([]);
  });

  it("holds itself alone when the shop has no Admin access, and retries when Shopify does not answer", async () => {
    const noAccess = { ...ctx(new ShopifyAdminStandIn()), adminForShop: async () => ({ ok: false as const, reason: "not installed" }) };
    expect(await sendFlowTrigger(noAccess, TEST_SHOP, everyTrigger()[0]!, job)).toEqual({ type: "pause", reason: "not installed", alone: true });
    const shopify = new ShopifyAdminStandIn();
    shopify.failNext("ReferralBridgeFlowTrigger", "lost");
    expect(await sendFlowTrigger(ctx(shopify), TEST_SHOP, everyTrigger()[0]!, job)).toMatchObject({ type: "retry" });
  });
});

describe("where each event is learnt", () => {
  const sandbox = useTestSandbox();
  const flowJobs = async () =>
    (await prisma.job.findMany({ where: { shop: TEST_SHOP, kind: "flow.trigger" }, orderBy: { createdAt: "asc" } })).map((j) => ({ key: j.key, ...JSON.parse(j.payload) }));
  const flowOn = () => prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });

  beforeEach(async () => {
    await connectShop(sandbox);
  });

  const commissionEvent = (status: string) => ({
    contact: { email: "alice@example.com" },
    referred_contact: { email: "jon@example.com" },
    campaign: { id: 1001, name: "Friends" },
    commission: { id: 4711, status, amount: 9, revenue: 90, transaction_id: "6412347889123" },
  });

  it("Commission approved / denied: from the service's webhook, once per commission, only with Flow on", async () => {
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "6412347889123", status: "recorded", commissionState: "pending" } });
    await applyCommissionEvent(prisma, TEST_SHOP, commissionEvent("approved"));
    expect(await flowJobs()).toEqual([]);

    await prisma.orderRecord.update({ where: { shop_orderId: { shop: TEST_SHOP, orderId: "6412347889123" } }, data: { commissionState: "pending" } });
    await flowOn();
    await applyCommissionEvent(prisma, TEST_SHOP, commissionEvent("denied"));
    await applyCommissionEvent(prisma, TEST_SHOP, commissionEvent("denied"));
    expect(await flowJobs()).toEqual([
      {
        key: `${TEST_SHOP}:flow.trigger:commission-denied:order:6412347889123:campaign:1001`,
        handle: "commission-denied",
        payload: { order_id: 6412347889123, "Referrer email": "alice@example.com", Campaign: "Friends", "Denied by": "referral service", Reason: "" },
      },
    ]);
  });

  it("Commission approved: from the merchant's decision, and the service's webhook of it after adds nothing", async () => {
    await flowOn();
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "6412347889123", status: "recorded", commissionState: "pending" } });
    const updates: unknown[] = [];
    const client = { updateCommission: async (params: unknown) => void updates.push(params) } as never;
    await decideCommission({ db: prisma }, TEST_SHOP, client, "4711:6412347889123:1001", "approve");
    await applyCommissionEvent(prisma, TEST_SHOP, commissionEvent("approved"));
    expect(updates).toEqual([{ commissionUid: "4711", status: "approved" }]);
    expect(await flowJobs()).toEqual([
      {
        key: `${TEST_SHOP}:flow.trigger:commission-approved:order:6412347889123:campaign:1001`,
        handle: "commission-approved",
        payload: { order_id: 6412347889123, "Referrer email": "", Campaign: "1001", "Approved by": "merchant" },
      },
    ]);
  });

  /** The webhook's event of commission `id` in campaign `campaignId`. */
  const inCampaign = (status: string, campaignId: number, name: string, id: number) => ({
    ...commissionEvent(status),
    campaign: { id: campaignId, name },
    commission: { ...commissionEvent(status).commission, id },
  });
  const keysAndCampaigns = async () => (await flowJobs()).map((j) => [j.key, j.payload.Campaign]).sort();

  it("Commission approved: two campaigns' approvals of one order are two triggers, each once", async () => {
    // GIVEN an order recorded in two campaigns, its commissions pending
    await flowOn();
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "6412347889123", status: "recorded", commissionState: "pending", campaignUids: "1001,1002" } });
    // WHEN the service approves each, and its webhook of the second comes again
    await applyCommissionEvent(prisma, TEST_SHOP, inCampaign("approved", 1001, "Friends", 4711));
    await applyCommissionEvent(prisma, TEST_SHOP, inCampaign("approved", 1002, "VIP", 4712));
    await applyCommissionEvent(prisma, TEST_SHOP, inCampaign("approved", 1002, "VIP", 4712));
    // THEN Flow hears of each approval once
    expect(await keysAndCampaigns()).toEqual([
      [`${TEST_SHOP}:flow.trigger:commission-approved:order:6412347889123:campaign:1001`, "Friends"],
      [`${TEST_SHOP}:flow.trigger:commission-approved:order:6412347889123:campaign:1002`, "VIP"],
    ]);
  });

  it("Commission approved: the merchant's approvals of one order's two commissions are two triggers, and the service's webhooks of them add none", async () => {
    await flowOn();
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "6412347889123", status: "recorded", commissionState: "pending", campaignUids: "1001,1002" } });
    const client = { updateCommission: async () => ({}) } as never;
    for (const entry of ["4711:6412347889123:1001", "4712:6412347889123:1002"]) {
      expect(await decideCommission({ db: prisma }, TEST_SHOP, client, entry, "approve")).toMatchObject({ ok: true, message: "Approved" });
    }
    await applyCommissionEvent(prisma, TEST_SHOP, inCampaign("approved", 1001, "Friends", 4711));
    await applyCommissionEvent(prisma, TEST_SHOP, inCampaign("approved", 1002, "VIP", 4712));
    expect(await keysAndCampaigns()).toEqual([
      [`${TEST_SHOP}:flow.trigger:commission-approved:order:6412347889123:campaign:1001`, "1001"],
      [`${TEST_SHOP}:flow.trigger:commission-approved:order:6412347889123:campaign:1002`, "1002"],
    ]);
  });

  it("Commission approved / denied: a late pending event after the commission was settled moves nothing and sends nothing", async () => {
    await flowOn();
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "6412347889123", status: "recorded", commissionState: "denied", campaignUids: "1001" } });
    // The service's webhook of a pending commission after it was settled: no move, no trigger.
    await applyCommissionEvent(prisma, TEST_SHOP, commissionEvent("pending"));
    expect(await recordOf("6412347889123")).toMatchObject({ commissionState: "denied" });
    expect(await flowJobs()).toEqual([]);
  });

  it("Commission approved: a decision whose trigger went out keyed by its order alone, before the key named the campaign, is not sent again", async () => {
    await flowOn();
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "6412347889123", status: "recorded", commissionState: "approved", campaignUids: "1001,1002" } });
    // GIVEN the merchant's approval, sent before the deploy (the page sent no campaign)
    const before = commissionDecided({ state: "approved", orderId: "6412347889123", by: "merchant" });
    await prisma.job.create({ data: { shop: TEST_SHOP, kind: FLOW_TRIGGER_JOB.name, key: `${TEST_SHOP}:flow.trigger:commission-approved:order:6412347889123`, payload: JSON.stringify(before), status: "done", runAt: new Date() } });
    // WHEN the service's webhook of it comes after the deploy
    await applyCommissionEvent(prisma, TEST_SHOP, inCampaign("approved", 1001, "Friends", 4711));
    // THEN nothing more is queued
    expect((await flowJobs()).map((j) => j.key)).toEqual([`${TEST_SHOP}:flow.trigger:commission-approved:order:6412347889123`]);
  });

  it("Commission approved: an order recorded in two campaigns and approved as it is recorded sends each campaign's approval", async () => {
    await connectShop(sandbox, { campaignUids: "1001,1002", approval: "approved" });
    await flowOn();
    const orderId = await receiveOrder({ noteAttributes: [], discountCodes: ["ALICE-15"] });
    await testPipeline().drain();
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", commissionState: "approved" });
    const approved = (await flowJobs()).filter((j) => j.handle === "commission-approved");
    expect(approved.map((j) => [j.key, j.payload.Campaign, j.payload["Approved by"]]).sort()).toEqual([
      [`${TEST_SHOP}:flow.trigger:commission-approved:order:${orderId}:campaign:1001`, "1001", "app"],
      [`${TEST_SHOP}:flow.trigger:commission-approved:order:${orderId}:campaign:1002`, "1002", "app"],
    ]);
  });

  it("Commission denied: a cancelled order of two campaigns sends each denial; with one it could not deny, none until the merchant's review", async () => {
    await connectShop(sandbox, { campaignUids: "1001,1003" });
    await flowOn();
    const pipeline = testPipeline();
    const denied = async () => (await flowJobs()).filter((j) => j.handle === "commission-denied");
    // GIVEN two buyers' orders recorded in both campaigns, and one of the second order's commissions approved at the service
    // (two buyers: a later order of the same buyer would be a repeat purchase, on the recurring reward)
    const both = await receiveOrder({ noteAttributes: [], discountCodes: ["ALICE-15"] });
    const oneApproved = await receiveOrder({
      noteAttributes: [],
      discountCodes: ["ALICE-15"],
      email: "second.buyer@example.net",
      customerEmail: "second.buyer@example.net",
      customerId: 7_400_000_101,
    });
    await pipeline.drain();
    const service = await shopServiceClient();
    await service.updateCommission({ transactionUid: oneApproved, campaignUid: "1001", status: "approved" });

    // WHEN both are cancelled
    await cancelOrder(both);
    await cancelOrder(oneApproved);
    await pipeline.drain();

    // THEN the first sends each campaign's denial, by the app with its reason
    expect(await recordOf(both)).toMatchObject({ status: "reversed", commissionState: "denied" });
    expect((await denied()).map((j) => [j.key, j.payload.Campaign, j.payload["Denied by"], j.payload.Reason]).sort()).toEqual([
      [`${TEST_SHOP}:flow.trigger:commission-denied:order:${both}:campaign:1001`, "1001", "app", "Order cancelled: commission denied"],
      [`${TEST_SHOP}:flow.trigger:commission-denied:order:${both}:campaign:1003`, "1003", "app", "Order cancelled: commission denied"],
    ]);
    // and the second waits for the merchant's review: its state and Flow hear nothing yet
    expect(await recordOf(oneApproved)).toMatchObject({ status: "needs_review", commissionState: "pending" });
    expect((await denied()).filter((j) => j.key.includes(oneApproved))).toEqual([]);
  });

  it("Commission denied: an order that needed review sends its denials once the merchant denied the rest at the service", async () => {
    await connectShop(sandbox, { campaignUids: "1001,1003" });
    await flowOn();
    // GIVEN an order recorded in both campaigns whose cancellation denied campaign 1003's commission and left 1001's for review
    const orderId = await receiveOrder({ noteAttributes: [], discountCodes: ["ALICE-15"] });
    await testPipeline().drain();
    const service = await shopServiceClient();
    await service.updateCommission({ transactionUid: orderId, campaignUid: "1003", status: "denied" });
    const results = JSON.parse((await recordOf(orderId)).results!);
    results["1001"].reversal = "needs_review";
    results["1003"].reversal = "denied";
    await prisma.orderRecord.update({ where: { shop_orderId: { shop: TEST_SHOP, orderId } }, data: { status: "needs_review", results: JSON.stringify(results) } });

    // WHEN the merchant denies 1001's at the service and checks the order again
    await service.updateCommission({ transactionUid: orderId, campaignUid: "1001", status: "denied" });
    expect(await recheckOrder({ db: prisma }, TEST_SHOP, orderId, service)).toMatchObject({ ok: true, title: "Review resolved" });

    // THEN the order is reversed, and each campaign's denial is sent once: the merchant's, and the cancellation's
    expect(await recordOf(orderId)).toMatchObject({ status: "reversed", commissionState: "denied" });
    expect((await flowJobs()).filter((j) => j.handle === "commission-denied").map((j) => [j.key, j.payload["Denied by"], j.payload.Reason]).sort()).toEqual([
      [`${TEST_SHOP}:flow.trigger:commission-denied:order:${orderId}:campaign:1001`, "merchant", "Denied at the referral service after the order needed review"],
      [`${TEST_SHOP}:flow.trigger:commission-denied:order:${orderId}:campaign:1003`, "app", "The order was cancelled or refunded"],
    ]);
  });

  it("Ambassador enrolled: from the service's contact-created webhook", async () => {
    await flowOn();
    const shopify = new ShopifyAdminStandIn();
    const ann = shopify.customers.add("ann@example.com");
    const annId = ann.id.split("/").at(-1)!;
    const event = { contact: { id: 55, email: "Ann@Example.com", internal_id: annId, memorable_url: "https://refer.example/ann" } };
    const deps = { db: prisma, adminForShop: shopify.access(), appSecret: SECRET };
    await applyContactCreated(deps, TEST_SHOP, event);
    await applyContactCreated(deps, TEST_SHOP, event);
    // The key outlives the payload (the purge empties it and keeps the job): it names nobody, and without the app's secret nobody can test a guessed email against it.
    expect(enrolmentKey("Ann@Example.com", SECRET)).toBe(enrolmentKey(" ann@example.com", SECRET));
    expect(enrolmentKey("Ann@Example.com", SECRET)).not.toMatch(/ann|example/i);
    expect(enrolmentKey("ann@example.com", SECRET)).not.toContain(createHash("sha256").update("ann@example.com").digest("hex").slice(0, 32));
    expect(enrolmentKey("ann@example.com", "another-app-secret")).not.toBe(enrolmentKey("ann@example.com", SECRET));
    expect(await flowJobs()).toEqual([
      {
        key: `${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("Ann@Example.com", SECRET)}`,
        handle: "ambassador-enrolled",
        payload: { customer_id: Number(annId), "Ambassador email": "ann@example.com", "Share link": "https://refer.example/ann", How: "service_webhook" },
      },
    ]);

    // customers/redact for ann, once the purge has emptied the sent triggers' payloads, takes the enrolment's key with her; another ambassador's stays
    await applyContactCreated(deps, TEST_SHOP, { contact: { id: 57, email: "bea@example.com" } });
    await prisma.job.updateMany({ where: { kind: "flow.trigger" }, data: { status: "done", payload: "{}" } });
    const who = { email: "ann@example.com", customerId: annId, orderIds: [] };
    await redactCustomer(prisma, createLogger({ level: "silent" }), { shop: TEST_SHOP, who, webhookId: null }, { credentialsKey: getEnv().CREDENTIALS_KEY, serviceEventJobKind: "service-event.process", appSecret: SECRET });
    expect((await flowJobs()).map((j) => j.key)).toEqual([`${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("bea@example.com", SECRET)}`]);
  });

  it("Ambassador enrolled: an internal_id that names a customer with another email names nobody; the verified customer with the email is named", async () => {
    await flowOn();
    const shopify = new ShopifyAdminStandIn();
    const bob = shopify.customers.add("bob@example.com");
    const deps = { db: prisma, adminForShop: shopify.access(), appSecret: SECRET };
    // GIVEN the service names bob by id for carol, whom the shop does not know, and for dora, whom it knows (verified) and erin (not verified)
    const dora = shopify.customers.add("dora@example.com");
    shopify.customers.add("erin@example.com", { verifiedEmail: false });
    for (const email of ["carol@example.com", "dora@example.com", "erin@example.com"]) {
      await applyContactCreated(deps, TEST_SHOP, { contact: { id: 56, email, internal_id: bob.id.split("/").at(-1) } });
    }
    const payloads = (await flowJobs()).map((j) => j.payload);
    expect(payloads.map((p) => [p["Ambassador email"], p.customer_id]).sort()).toEqual([
      ["carol@example.com", undefined],
      ["dora@example.com", Number(dora.id.split("/").at(-1))],
      ["erin@example.com", undefined],
    ]);
  });

  it("Ambassador enrolled: triggers stored under the unkeyed hash are keyed at start where the email is known, deleted where it is not", async () => {
    // GIVEN three enrolment triggers stored before the key was keyed: cara's payload still names her, dan's was emptied
    // by the purge, and eve's has a keyed twin already
    const unkeyed = (email: string) => `${TEST_SHOP}:flow.trigger:ambassador-enrolled:ambassador:${createHash("sha256").update(email).digest("hex").slice(0, 32)}`;
    const sent = (email: string) => JSON.stringify({ handle: "ambassador-enrolled", payload: { "Ambassador email": email, How: "storefront" } });
    await prisma.job.createMany({
      data: [
        { shop: TEST_SHOP, kind: "flow.trigger", key: unkeyed("cara@example.com"), payload: sent("cara@example.com"), status: "done" },
        { shop: TEST_SHOP, kind: "flow.trigger", key: unkeyed("dan@example.com"), payload: "{}", status: "done" },
        { shop: TEST_SHOP, kind: "flow.trigger", key: unkeyed("eve@example.com"), payload: sent("eve@example.com"), status: "done" },
        { shop: TEST_SHOP, kind: "flow.trigger", key: `${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("eve@example.com", SECRET)}`, payload: "{}", status: "done" },
      ],
    });
    // WHEN the app starts (twice: the pass has nothing left to do the second time)
    expect(await rekeyEnrolmentTriggers(prisma, SECRET)).toEqual({ rekeyed: 1, deleted: 2 });
    expect(await rekeyEnrolmentTriggers(prisma, SECRET)).toEqual({ rekeyed: 0, deleted: 0 });
    // THEN no key holds an unkeyed hash; cara's is keyed, so learning her enrolment again queues nothing, and her redaction finds it
    expect((await prisma.job.findMany({ select: { key: true }, orderBy: { key: "asc" } })).map((j) => j.key).sort()).toEqual(
      [`${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("cara@example.com", SECRET)}`, `${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("eve@example.com", SECRET)}`].sort(),
    );
    await redactCustomer(prisma, createLogger({ level: "silent" }), { shop: TEST_SHOP, who: { email: "cara@example.com", customerId: null, orderIds: [] }, webhookId: null }, { credentialsKey: getEnv().CREDENTIALS_KEY, serviceEventJobKind: "service-event.process", appSecret: SECRET });
    expect((await prisma.job.findMany({ where: { kind: "flow.trigger" } })).map((j) => j.key)).toEqual([`${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("eve@example.com", SECRET)}`]);
  });

  it("Ambassador enrolled: from the thank-you page's look-up that enrolled the customer", async () => {
    await flowOn();
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { autoEnrol: true } });
    const deps = {
      db: prisma,
      clientForShop: (shop: string) => shopClient(prisma, shop, { credentialsKey: getEnv().CREDENTIALS_KEY, network: { allowLoopback: true } }),
      answers: createTtlCache<never>({ ttlMs: 1 }),
      pointNames: createTtlCache<string | null>({ ttlMs: 60_000 }),
      logger: createLogger({ level: "silent" }),
      appSecret: SECRET,
    };
    const answer = await loadShareLinks(deps as never, {
      shop: TEST_SHOP,
      customerId: "7012345678902",
      lookupCustomer: async () => ({ email: "newbie@example.com", firstName: "Nia", verifiedEmail: true }),
      surface: "checkout",
    });
    expect(answer).toMatchObject({ status: "ok" });
    expect(await flowJobs()).toEqual([
      {
        key: `${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("newbie@example.com", SECRET)}`,
        handle: "ambassador-enrolled",
        payload: { customer_id: 7012345678902, "Ambassador email": "newbie@example.com", "Share link": expect.stringMatching(/^https?:\/\//), How: "thank_you" },
      },
    ]);
  });
});
