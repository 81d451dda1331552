// The Flow triggers from each place the app learns their event, below the
// served build: the payload builders (pure), the job that sends them through
// the Admin stand-in (Shopify's 2026-10 schema validates the document), and
// each domain's call queuing the trigger once per event, only with Flow on.
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { createTtlCache } from "../../../app/platform/cache/ttl-cache";
import { shopClient } from "../../../app/domains/connection/shop-client.server";
import { decideCommission } from "../../../app/entry/admin/commissions.server";
import { FLOW_TRIGGER_JOB } from "../../../app/domains/flow-triggers/job-kinds";
import { enrolmentKey } from "../../../app/domains/flow-triggers/queue-trigger.server";
import { sendFlowTrigger } from "../../../app/domains/flow-triggers/send-trigger.server";
import {
  ambassadorEnrolled,
  commissionDecided,
  FLOW_PAYLOAD_LIMIT_BYTES,
  FLOW_TRIGGER_HANDLES,
  payloadBytes,
  payoutStoreCredit,
  referenceId,
  referralBlocked,
  referralCredited,
  type FlowTrigger,
} from "../../../app/domains/flow-triggers/triggers";
import { applyCommissionEvent } from "../../../app/domains/service-events/commission-events.server";
import { applyContactCreated } from "../../../app/domains/service-events/contact-events.server";
import { loadShareLinks } from "../../../app/domains/storefront/share-links.server";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { appFlowTriggers } from "../../support/standin-flow";
import { TEST_SHOP } from "../../support/shopify-requests";

const LONG = "x".repeat(200_000);

/** One of each trigger, with every field filled (and overlong text). */
function everyTrigger(text = "a"): FlowTrigger[] {
  return [
    referralCredited({ orderId: "6412347889123", customerId: "gid://shopify/Customer/7012345678901", referrerEmail: `${text}@example.com`, code: text, campaign: text, revenue: "90.00", commission: "9.00" }),
    commissionDecided({ state: "approved", orderId: "6412347889123", referrerEmail: "alice@example.com", campaign: text, by: "merchant" }),
    commissionDecided({ state: "denied", orderId: "6412347889123", referrerEmail: "alice@example.com", campaign: "1001", by: "referral service", reason: text }),
    ambassadorEnrolled({ customerId: "7012345678901", email: "ann@example.com", shareLink: `https://refer.example/${text}`, how: "thank_you" }),
    referralBlocked({ orderId: "6412347889123", customerId: "7012345678901", rule: "self_email", reason: text, code: "ALICE-15" }),
    payoutStoreCredit({ customerId: "gid://shopify/Customer/7012345678901", email: "alice@example.com", amount: "12.50", currency: "EUR", payoutId: text }),
  ];
}

describe("the payloads", () => {
  it("carry exactly the fields each trigger's TOML declares, for all six", () => {
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
    expect(shopify.callsOf("ReferralBridgeFlowTrigger").map((c) => c.outcome)).toEqual(Array(6).fill("ok"));
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
        key: `${TEST_SHOP}:flow.trigger:commission-denied:order:6412347889123`,
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
    await decideCommission({ db: prisma }, TEST_SHOP, client, "4711:6412347889123", "approve");
    await applyCommissionEvent(prisma, TEST_SHOP, commissionEvent("approved"));
    expect(updates).toEqual([{ commissionUid: "4711", status: "approved" }]);
    expect(await flowJobs()).toEqual([
      {
        key: `${TEST_SHOP}:flow.trigger:commission-approved:order:6412347889123`,
        handle: "commission-approved",
        payload: { order_id: 6412347889123, "Referrer email": "", Campaign: "", "Approved by": "merchant" },
      },
    ]);
  });

  it("Ambassador enrolled: from the service's contact-created webhook", async () => {
    await flowOn();
    const event = { contact: { id: 55, email: "Ann@Example.com", internal_id: "7012345678901", memorable_url: "https://refer.example/ann" } };
    const deps = { db: prisma, adminForShop: new ShopifyAdminStandIn().access() };
    await applyContactCreated(deps, TEST_SHOP, event);
    await applyContactCreated(deps, TEST_SHOP, event);
    // The key outlives the payload (the purge empties it and keeps the job): it names nobody.
    expect(enrolmentKey("Ann@Example.com")).toBe(enrolmentKey(" ann@example.com"));
    expect(enrolmentKey("Ann@Example.com")).not.toMatch(/ann|example/i);
    expect(await flowJobs()).toEqual([
      {
        key: `${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("Ann@Example.com")}`,
        handle: "ambassador-enrolled",
        payload: { customer_id: 7012345678901, "Ambassador email": "ann@example.com", "Share link": "https://refer.example/ann", How: "service_webhook" },
      },
    ]);
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
    };
    const answer = await loadShareLinks(deps as never, {
      shop: TEST_SHOP,
      customerId: "7012345678902",
      lookupCustomer: async () => ({ email: "newbie@example.com", firstName: "Nia" }),
      surface: "checkout",
    });
    expect(answer).toMatchObject({ status: "ok" });
    expect(await flowJobs()).toEqual([
      {
        key: `${TEST_SHOP}:flow.trigger:ambassador-enrolled:${enrolmentKey("newbie@example.com")}`,
        handle: "ambassador-enrolled",
        payload: { customer_id: 7012345678902, "Ambassador email": "newbie@example.com", "Share link": expect.stringMatching(/^https?:\/\//), How: "thank_you" },
      },
    ]);
  });
});
