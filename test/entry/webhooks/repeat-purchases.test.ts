import "../admin/browser-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startTestAppServer, type AppServer } from "../admin/app-server";
import { connectShop, sandboxCommissions, testPipeline, useTestSandbox } from "../../support/pipeline";
import { shopifyOrder, shopifyRefund, type OrderOptions } from "../../support/orders";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";

// Later orders of referred customers, end to end: real-shaped orders/paid
// webhooks (Admin API 2026-10) through the built app under server.mjs, the
// jobs run by the worker's code, and what the sandbox service recorded. The
// sandbox's campaign 1001 pays 10% on a first order and 5% recurring; 1002
// pays a flat 15.00 and no recurring reward.

const sandbox = useTestSandbox();
let server: AppServer;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);

afterAll(() => server?.stop());

const MARIA: OrderOptions = { email: "maria@example.com", customerEmail: "maria@example.com", customerId: 7390001122334455667n };

async function deliver(topic: string, body: unknown): Promise<void> {
  const response = await fetch(signedWebhook({ topic, body, url: `${server.origin}/webhooks/${topic}` }));
  await response.text();
  expect(response.status).toBe(200);
}

async function order(options: OrderOptions & { id: bigint }): Promise<string> {
  await deliver("orders/paid", shopifyOrder({ ...MARIA, ...options }));
  return options.id.toString();
}

const referredBy = (code: string) => ({ noteAttributes: [{ name: "_referral_code", value: code }] });
const recordOf = (orderId: string) => prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId } });
const decisionOf = async (orderId: string) => JSON.parse((await recordOf(orderId)).explanation ?? "{}").decision as string;
const commissionOf = async (orderId: string) => (await sandboxCommissions(sandbox, orderId)).map((c) => ({ who: c.affiliate_email, amount: c.commission_amount }));
const setPolicy = (policies: Record<string, unknown>) => prisma.shop.update({ where: { shop: TEST_SHOP }, data: { repeatPolicies: JSON.stringify(policies) } });

/** Maria's first order, referred by Alice's link: the initial reward, 10% of 90.00. */
async function referredFirstOrder(pipeline: ReturnType<typeof testPipeline>): Promise<string> {
  const first = await order({ id: 5540000000000000001n, ...referredBy("ALICE10") });
  await pipeline.drain();
  expect(await commissionOf(first)).toEqual([{ who: "alice@example.com", amount: "9.00" }]);
  return first;
}

const REFERRED_ON = /^(Subscription renewal \(.+\)|Repeat purchase) of a customer alice@example\.com referred on \d{1,2} \w{3} \d{4}: /;

describe("a referred customer's later orders, under the default setting (only orders with a referral code)", () => {
  it("credits every renewal signal and an ordinary second order to the first referrer on the recurring reward", async () => {
    await connectShop(sandbox, { renewalRule: "tag:box-renewal" });
    const pipeline = testPipeline();
    await referredFirstOrder(pipeline);

    const renewals: [bigint, OrderOptions, string][] = [
      [5540000000000000002n, { sourceName: "subscription_contract_checkout_one" }, "Shopify's source subscription_contract_checkout_one"],
      [5540000000000000003n, { sourceName: "subscription_contract" }, "Shopify's source subscription_contract"],
      [5540000000000000004n, { sourceName: "294517", tags: "Subscription, Subscription Recurring Order" }, `the subscription app's tag "subscription recurring order"`],
      [5540000000000000005n, { sourceName: "skio", noteAttributes: [{ name: "subscription_provider", value: "skio" }] }, "the subscription app's note attribute subscription_provider"],
      [5540000000000000006n, { tags: "box-renewal" }, `your renewal tag "box-renewal"`],
    ];
    for (const [id, options, signal] of renewals) {
      const renewal = await order({ ...options, id });
      await pipeline.drain();
      expect(await commissionOf(renewal), signal).toEqual([{ who: "alice@example.com", amount: "4.50" }]);
      expect(await recordOf(renewal)).toMatchObject({ status: "recorded", repeatKind: "renewal", shortCode: null, couponCode: null });
      expect(await decisionOf(renewal)).toMatch(REFERRED_ON);
      expect(await decisionOf(renewal)).toContain(`Subscription renewal (${signal})`);
    }

    const second = await order({ id: 5540000000000000007n });
    await pipeline.drain();
    expect(await commissionOf(second)).toEqual([{ who: "alice@example.com", amount: "4.50" }]);
    expect(await recordOf(second)).toMatchObject({ status: "recorded", repeatKind: "repeat" });
    expect(await decisionOf(second)).toMatch(/^Repeat purchase of a customer alice@example\.com referred on .*: recurring reward$/);
  });

  it("keeps the first referrer when a later order carries another ambassador's code, and says so", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    await referredFirstOrder(pipeline);
    const later = await order({ id: 5540000000000000011n, ...referredBy("BOB10") });
    await pipeline.drain();
    expect(await commissionOf(later)).toEqual([{ who: "alice@example.com", amount: "4.50" }]);
    expect(await decisionOf(later)).toBe(
      `Repeat purchase of a customer alice@example.com referred on ${new Date().toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })}: recurring reward; the code BOB10 on it does not move the customer to another referrer`,
    );
  });

  it("finds the customer by email under the guard's normalisation when the order has no customer id", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    await referredFirstOrder(pipeline);
    const guest = await order({ id: 5540000000000000012n, customerId: null, email: "Maria@Example.com", customerEmail: null });
    await pipeline.drain();
    expect(await recordOf(guest)).toMatchObject({ status: "recorded", repeatKind: "repeat" });
    expect(await commissionOf(guest)).toEqual([{ who: "alice@example.com", amount: "4.50" }]);
  });

  it("sends nothing for a customer whose first order was not referred", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const first = await order({ id: 5540000000000000021n });
    const renewal = await order({ id: 5540000000000000022n, sourceName: "subscription_contract_checkout_one" });
    await pipeline.drain();
    for (const id of [first, renewal]) expect(await sandboxCommissions(sandbox, id)).toEqual([]);
    for (const id of [first, renewal]) expect((await recordOf(id)).status).toMatch(/^(awaiting_signal|not_referred)$/);
    expect(await prisma.referredCustomer.count()).toBe(0);
  });

  it("sends nothing later in a campaign whose recurring reward is none", async () => {
    await connectShop(sandbox, { campaignUids: "1002" });
    const pipeline = testPipeline();
    const first = await order({ id: 5540000000000000031n, ...referredBy("ALICEVIP") });
    await pipeline.drain();
    expect(await commissionOf(first)).toEqual([{ who: "alice@example.com", amount: "15.00" }]);
    const renewal = await order({ id: 5540000000000000032n, sourceName: "subscription_contract_checkout_one" });
    await pipeline.drain();
    expect(await sandboxCommissions(sandbox, renewal)).toEqual([]);
    expect(await recordOf(renewal)).toMatchObject({ status: "not_referred", repeatKind: null });
    expect((await recordOf(renewal)).statusReason).toMatch(/: not sent, the campaign pays no recurring reward$/);
  });

  it("reduces only the refunded renewal's commission", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const first = await referredFirstOrder(pipeline);
    const renewal = await order({ id: 5540000000000000041n, sourceName: "subscription_contract_checkout_one" });
    await pipeline.drain();
    await deliver("refunds/create", shopifyRefund(5540000000000000041n, ["30.00"], 890088186047899001n));
    await pipeline.drain();
    expect(await commissionOf(renewal)).toEqual([{ who: "alice@example.com", amount: "3.00" }]);
    expect(await commissionOf(first)).toEqual([{ who: "alice@example.com", amount: "9.00" }]);
  });
});

describe("a subscription order known only by its line items' selling plan (Admin GraphQL)", () => {
  const SELLING_PLANS = "ReferralBridgeOrderSellingPlans";
  let shopify: ShopifyAdminStandIn;
  let standIn: { origin: string; close(): Promise<void> };
  beforeAll(async () => {
    shopify = new ShopifyAdminStandIn();
    standIn = await shopify.serve();
  });
  afterAll(() => standIn?.close());

  /** A referred customer's order from a subscription app (its source an app id), with no renewal tag or attribute: only its selling plan can say. */
  async function appOrder(pipeline: ReturnType<typeof testPipeline>, id: bigint, sellingPlan?: string) {
    const body = shopifyOrder({ ...MARIA, id, sourceName: "294517" });
    shopify.orders.add(body as Record<string, unknown>, sellingPlan ? { sellingPlan } : {});
    await deliver("orders/paid", body);
    await pipeline.drain();
    return id.toString();
  }

  it("asks Shopify for the selling plan of a referred customer's app order, and pays it as a renewal under renewals only; without one, not", async () => {
    await connectShop(sandbox);
    await setPolicy({ "1001": { policy: "renewals_only" } });
    const pipeline = testPipeline();
    shopify.calls = [];
    pipeline.ctx.adminForShop = shopify.access();
    await referredFirstOrder(pipeline);
    // The first order came from the web: Shopify was not asked.
    expect(shopify.callsOf(SELLING_PLANS)).toEqual([]);

    const renewal = await appOrder(pipeline, 5540000000000000081n, "Deliver every month, 10% off");
    expect(await commissionOf(renewal)).toEqual([{ who: "alice@example.com", amount: "4.50" }]);
    expect(await recordOf(renewal)).toMatchObject({ status: "recorded", repeatKind: "renewal" });
    expect(await decisionOf(renewal)).toContain(`Subscription renewal (a line item's selling plan "Deliver every month, 10% off")`);

    const oneOff = await appOrder(pipeline, 5540000000000000082n);
    expect(await sandboxCommissions(sandbox, oneOff)).toEqual([]);
    expect((await recordOf(oneOff)).statusReason).toMatch(/^Repeat purchase of .*: not sent, the campaign's policy pays subscription renewals only$/);
    expect(shopify.callsOf(SELLING_PLANS)).toHaveLength(2);
  });

  it("asks nothing for an app order of a customer nobody referred", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    shopify.calls = [];
    pipeline.ctx.adminForShop = shopify.access();
    await appOrder(pipeline, 5540000000000000091n, "Deliver every month");
    expect(shopify.callsOf(SELLING_PLANS)).toEqual([]);
  });
});

describe("a campaign's policy for later orders", () => {
  it("subscription renewals only: an ordinary second order is not sent, a renewal is", async () => {
    await connectShop(sandbox);
    await setPolicy({ "1001": { policy: "renewals_only" } });
    const pipeline = testPipeline();
    await referredFirstOrder(pipeline);
    const second = await order({ id: 5540000000000000051n });
    const renewal = await order({ id: 5540000000000000052n, sourceName: "subscription_contract_checkout_one" });
    await pipeline.drain();
    expect(await sandboxCommissions(sandbox, second)).toEqual([]);
    expect((await recordOf(second)).statusReason).toMatch(/^Repeat purchase of .*: not sent, the campaign's policy pays subscription renewals only$/);
    expect(await commissionOf(renewal)).toEqual([{ who: "alice@example.com", amount: "4.50" }]);
  });

  it("the first N renewals: the first two are paid, the third is not", async () => {
    await connectShop(sandbox);
    await setPolicy({ "1001": { policy: "first_n", firstN: 2 } });
    const pipeline = testPipeline();
    await referredFirstOrder(pipeline);
    const ids = [5540000000000000061n, 5540000000000000062n, 5540000000000000063n];
    for (const id of ids) {
      await order({ id, sourceName: "subscription_contract_checkout_one" });
      await pipeline.drain();
    }
    const [one, two, three] = ids.map((id) => id.toString());
    expect(await commissionOf(one!)).toEqual([{ who: "alice@example.com", amount: "4.50" }]);
    expect(await decisionOf(one!)).toMatch(/: recurring reward \(renewal 1 of 2\)$/);
    expect(await commissionOf(two!)).toEqual([{ who: "alice@example.com", amount: "4.50" }]);
    expect(await sandboxCommissions(sandbox, three!)).toEqual([]);
    expect((await recordOf(three!)).statusReason).toMatch(/: not sent, the campaign's policy pays the first 2 subscription renewals, and 2 were paid$/);
  });

  it("first order only: a renewal carrying the referrer's code is not sent", async () => {
    await connectShop(sandbox);
    await setPolicy({ "1001": { policy: "first_only" } });
    const pipeline = testPipeline();
    await referredFirstOrder(pipeline);
    const renewal = await order({ id: 5540000000000000071n, sourceName: "subscription_contract_checkout_one", discountCodes: ["ALICE-15"] });
    await pipeline.drain();
    expect(await sandboxCommissions(sandbox, renewal)).toEqual([]);
    expect(await recordOf(renewal)).toMatchObject({ status: "not_referred" });
    expect((await recordOf(renewal)).statusReason).toMatch(
      /^Subscription renewal \(Shopify's source subscription_contract_checkout_one\) of .*: not sent, the campaign's policy pays the first order only; the code ALICE-15 on it does not move the customer to another referrer$/,
    );
  });
});
