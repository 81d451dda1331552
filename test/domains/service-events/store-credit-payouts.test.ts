// Store credit payouts in the program's currency, under the merchant's
// ceiling, exactly once: signed payout-created deliveries to the app's
// receiving route, the jobs run by the app's worker, Shopify's Admin API as
// the stand-in (its documents checked against Shopify's schema, its store
// credit transactions the record of what was credited), and the merchant's
// answers through the Service events page's loader and action.
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it } from "vitest";
import { PayoutSettingsFields } from "../../../app/entry/admin/components/PayoutSettingsFields";
import { PayoutsWaitingCard } from "../../../app/entry/admin/components/PayoutsWaitingCard";
import type { HeldPayout } from "../../../app/domains/service-events/payout-credits.server";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { action as eventsAction, loader as eventsLoader } from "../../../app/routes/app.events";
import { action as receiveAction } from "../../../app/routes/referral-webhooks.$endpointId";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { recordPayoutCurrency } from "../../../app/domains/service-events/payout-settings.server";
import { SIGNATURE_HEADER, signServiceBody } from "../../../app/domains/service-events/signature.server";
import { adminRequest, callRoute, load, submit } from "../../entry/admin/admin-requests";
import { action as settingsAction } from "../../../app/routes/app.settings";
import { resetDatabase } from "../../support/database";
import { testPipeline, type TestPipeline } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { ShopifyAdminStandIn, type StandInCall } from "../../support/shopify-admin-standin";
import type { StandInCustomer } from "../../support/standin-customers";
import { TEST_SHOP } from "../../support/shopify-requests";

// The service's events are recent: an event older than its replay window is refused, so a fixed date goes stale.
const recentServiceTime = () => new Date(Date.now() - 60 * 60_000).toISOString().slice(0, 19);

const CREDIT = "ReferralBridgeCreditStoreCredit";
let pipeline: TestPipeline;
let shopify: ShopifyAdminStandIn;
let endpoint: { endpointId: string; secret: string };
let began: Date;

beforeEach(async () => {
  await resetDatabase();
  await installShop();
  endpoint = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { storeCreditPayouts: true, payoutCurrency: "USD" } });
  pipeline = testPipeline();
  shopify = new ShopifyAdminStandIn();
  shopify.customers.now = () => pipeline.ctx.now();
  pipeline.ctx.adminForShop = shopify.access();
  began = pipeline.ctx.now();
});

let nextEvent = 71_000;
/** The service's payout-created webhook, signed with the shop's secret, delivered to the app's receiving route. */
async function deliverPayout(payout: { id: number; email?: string; amount: number | string; internalId?: string }): Promise<void> {
  const response = await postPayout(payout, endpoint.secret);
  expect(response.status).toBe(200);
}

/** The same webhook signed with `secret`, and the route's answer. */
async function postPayout(payout: { id: number; email?: string; amount: number | string; internalId?: string }, secret: string): Promise<Response> {
  const body = JSON.stringify({
    webhook_version: 0.4,
    created_at: recentServiceTime(),
    event_id: nextEvent++,
    event_type: "payout-created",
    event_data: {
      contact: { id: 101, first_name: "Alice", last_name: "Archer", email: payout.email ?? "alice@example.com", internal_id: payout.internalId ?? "" },
      payout: { id: payout.id, created_at: recentServiceTime(), amount: payout.amount, unit: "money", payment_method: "storeplatform", gift_card_sku: null, voucher_code: null, transaction_id: null },
    },
  });
  const request = new Request(`https://referral-bridge.test/referral-webhooks/${endpoint.endpointId}`, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signServiceBody(secret, body) },
    body,
  });
  return receiveAction({ request, params: { endpointId: endpoint.endpointId }, context: {} });
}

/** The Service events page's action, as the merchant's browser posts it. */
async function pageAction(form: Record<string, string>) {
  return (await callRoute(eventsAction, await adminRequest("/app/events", { form }))) as { ok: boolean; message: string; fieldErrors?: Record<string, string> };
}

const creditCalls = (outcome?: StandInCall["outcome"]) => shopify.callsOf(CREDIT, outcome);
/** The stand-in's own record: the credits made to the customer since the test began. */
const creditsTo = (customer: StandInCustomer, currency?: string) =>
  shopify.customers.creditsOf(customer, currency).filter((t) => t.createdAt >= began).map((t) => `${t.amount} ${t.currency}`);
const credit = () => prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } });
const payoutEvent = async () => (await prisma.serviceEvent.findMany({ where: { shop: TEST_SHOP, eventType: "payout-created" } }))[0]!;

/** Runs the due jobs now and again after the retry backoff and the settle window have passed. */
async function drainWithRetries(rounds = 3) {
  for (let round = 0; round < rounds; round++) {
    await pipeline.drain();
    pipeline.advance(30 * 60_000);
  }
}

describe("the program's currency", () => {
  it("holds a payout when the program's currency is not the shop's, converts nothing, and credits it once the merchant says the program pays in the shop's", async () => {
    // GIVEN a store that sells in Kuwaiti dinars, a program recorded as paying in US dollars
    shopify.shopCurrency = "KWD";
    const alice = shopify.customers.add("alice@example.com");

    // WHEN the service pays alice 5
    await deliverPayout({ id: 9101, amount: 5 });
    await pipeline.drain();

    // THEN nothing is credited: the payout waits for the merchant, saying why and what to do
    expect(creditCalls()).toEqual([]);
    expect(await credit()).toMatchObject({ state: "wrong_currency", currency: "USD" });
    const event = await payoutEvent();
    expect(event).toMatchObject({ state: "held", detail: expect.stringMatching(/program pays in USD, and this store sells in KWD.*does not convert/) });
    const page = await load(eventsLoader, "/app/events");
    expect(page.payouts).toMatchObject({ currency: "USD", ceiling: "100.00", held: [{ payoutId: "9101", amount: "5.00", currency: "USD", state: "wrong_currency" }] });
    expect(page.payouts.held[0]!.reason).toMatch(/change the program's currency and choose Check again/);

    // WHEN the merchant sets the program's currency to KWD and asks for it to be checked again
    expect(await pageAction({ intent: "options", storeCreditPayouts: "true", tagContacts: "false", payoutCurrency: "kwd", payoutCeiling: "100.00" })).toEqual({ ok: true, message: "Saved." });
    expect(await pageAction({ intent: "recheckPayout", id: page.payouts.held[0]!.id })).toMatchObject({ ok: true });
    await pipeline.drain();

    // THEN it is credited once, in KWD
    expect(creditsTo(alice, "KWD")).toEqual(["5.00 KWD"]);
    expect(creditCalls("ok")[0]!.variables).toMatchObject({ creditInput: { creditAmount: { amount: "5.000", currencyCode: "KWD" } } });
    expect(await credit()).toMatchObject({ state: "credited", currency: "KWD" });
    expect(await payoutEvent()).toMatchObject({ state: "processed", detail: expect.stringContaining("5.000 KWD store credit given") });
    expect((await load(eventsLoader, "/app/events")).payouts.held).toEqual([]);
    expect(shopify.refused).toEqual([]);
  });

  it("takes the shop's currency as the program's when none is set, recording it at the first payout", async () => {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { payoutCurrency: null } });
    shopify.shopCurrency = "EUR";
    const alice = shopify.customers.add("alice@example.com");

    await deliverPayout({ id: 9102, amount: "7.5" });
    await pipeline.drain();

    expect(creditsTo(alice, "EUR")).toEqual(["7.50 EUR"]);
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).payoutCurrency).toBe("EUR");
    // Then a change of the shop's currency holds the next payout instead of paying it in the new one.
    shopify.shopCurrency = "GBP";
    await deliverPayout({ id: 9103, amount: 2 });
    await pipeline.drain();
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { payoutId: "9103" } })).toMatchObject({ state: "wrong_currency" });
    expect(creditCalls()).toHaveLength(1);
  });

  it("the page records the shop's currency while payouts are on and none is set; the merchant's choice wins; a slow Shopify leaves it for later", async () => {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { payoutCurrency: null } });
    shopify.shopCurrency = "CAD";
    expect(await recordPayoutCurrency(prisma, TEST_SHOP, shopify.access())).toBe("CAD");
    shopify.shopCurrency = "USD";
    expect(await recordPayoutCurrency(prisma, TEST_SHOP, shopify.access())).toBe("CAD");

    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { payoutCurrency: null } });
    const slow = shopify.holdNext("ReferralBridgeShopCurrency", { acted: true });
    expect(await recordPayoutCurrency(prisma, TEST_SHOP, shopify.access(), 50)).toBeNull();
    slow.drop();
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).payoutCurrency).toBeNull();
  });
});

describe("amounts in the currency's minor unit", () => {
  it("sends Shopify each amount rounded to its currency's decimals (yen none, dinars three, dollars two) and credits nothing for an amount that rounds to nothing", async () => {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { payoutCeiling: "100000.00", payoutPeriodTotal: "100000.00" } });
    const alice = shopify.customers.add("alice@example.com");
    const cases = [
      { currency: "JPY", amount: "1500.5", sent: "1501" },
      { currency: "KWD", amount: "5.1256", sent: "5.126" },
      { currency: "USD", amount: "7.125", sent: "7.13" },
    ];
    let id = 9501;
    for (const { currency, amount } of cases) {
      shopify.shopCurrency = currency;
      await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { payoutCurrency: currency } });
      await deliverPayout({ id: id++, amount });
      await pipeline.drain();
    }
    expect(creditCalls("ok").map((c) => (c.variables as { creditInput: { creditAmount: unknown } }).creditInput.creditAmount)).toEqual(
      cases.map(({ currency, sent }) => ({ amount: sent, currencyCode: currency })),
    );
    expect(creditsTo(alice, "JPY")).toEqual(["1501.00 JPY"]);

    await deliverPayout({ id: 9599, amount: "0.004" });
    await pipeline.drain();
    expect(creditCalls()).toHaveLength(3);
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { payoutId: "9599" } })).toMatchObject({ state: "failed", lastError: expect.stringMatching(/nothing once rounded/) });
  });
});

describe("the ceiling", () => {
  it("holds a payout above it until the merchant approves it, then credits it once however often they click", async () => {
    const alice = shopify.customers.add("alice@example.com");
    await deliverPayout({ id: 9201, amount: 150 });
    await pipeline.drain();

    expect(creditCalls()).toEqual([]);
    expect(await credit()).toMatchObject({ state: "awaiting_approval", approvedAt: null });
    expect(await payoutEvent()).toMatchObject({ state: "held", detail: expect.stringMatching(/150\.00 USD, above your ceiling of 100\.00 USD.*Approve and credit/) });
    const [held] = (await load(eventsLoader, "/app/events")).payouts.held;

    // WHEN the merchant approves it, twice (a double click, a second tab)
    expect(await pageAction({ intent: "approvePayout", id: held!.id })).toEqual({ ok: true, message: "Approved: the payout is being credited." });
    expect(await pageAction({ intent: "approvePayout", id: held!.id })).toMatchObject({ ok: false, message: expect.stringMatching(/no longer waiting/) });
    await drainWithRetries();

    // THEN it is credited once
    expect(creditsTo(alice)).toEqual(["150.00 USD"]);
    expect(creditCalls()).toHaveLength(1);
    expect(await credit()).toMatchObject({ state: "credited", approvedAt: expect.any(Date) });
    expect(await payoutEvent()).toMatchObject({ state: "processed" });
  });

  it("never credits an amount like 1e6 on its own, and follows the merchant's ceiling", async () => {
    const alice = shopify.customers.add("alice@example.com");
    await deliverPayout({ id: 9202, amount: 1e6 });
    await pipeline.drain();
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { payoutId: "9202" } })).toMatchObject({ state: "awaiting_approval", amount: "1000000.00" });

    // The merchant lowers the ceiling to 10.00 and then closes the big one without crediting it.
    expect(await pageAction({ intent: "options", storeCreditPayouts: "true", tagContacts: "false", payoutCeiling: "10" })).toMatchObject({ ok: true });
    await deliverPayout({ id: 9203, amount: 12 });
    await deliverPayout({ id: 9204, amount: "9.99" });
    await pipeline.drain();
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { payoutId: "9203" } })).toMatchObject({ state: "awaiting_approval" });
    const big = await prisma.payoutCredit.findFirstOrThrow({ where: { payoutId: "9202" } });
    expect(await pageAction({ intent: "closePayout", id: big.id })).toMatchObject({ ok: true });

    expect(creditsTo(alice)).toEqual(["9.99 USD"]);
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { payoutId: "9202" } })).toMatchObject({ state: "closed" });
    const page = await load(eventsLoader, "/app/events");
    expect(page.payouts.held.map((p) => p.payoutId)).toEqual(["9203"]);
    expect(page.payouts.ceiling).toBe("10.00");
  });

  it("refuses a ceiling or currency it cannot read, saying which, and saves nothing", async () => {
    const refused = await pageAction({ intent: "options", storeCreditPayouts: "false", tagContacts: "true", payoutCurrency: "Dollars", payoutCeiling: "-5" });
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { payoutCurrency: expect.stringMatching(/three-letter code/), payoutCeiling: expect.stringMatching(/above 0/) },
    });
    for (const ceiling of ["0", "abc", "1e9", "2000000"]) {
      expect((await pageAction({ intent: "options", storeCreditPayouts: "true", tagContacts: "false", payoutCeiling: ceiling })).fieldErrors).toHaveProperty("payoutCeiling");
    }
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ storeCreditPayouts: true, tagContacts: false, payoutCurrency: "USD", payoutCeiling: "100.00" });
    expect(await pageAction({ intent: "options", storeCreditPayouts: "true", tagContacts: "false", payoutCurrency: " jpy ", payoutCeiling: "15,000" })).toMatchObject({ ok: true });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ payoutCurrency: "JPY", payoutCeiling: "15000.00" });
  });
});

describe("the ambassador's customer", () => {
  it("holds a payout whose email only an unverified customer has, showing why, and credits it once Shopify has verified the email and the merchant checks again", async () => {
    // GIVEN someone signed up with the ambassador's email in a shop with classic accounts and never verified it
    const impostor = shopify.customers.add("alice@example.com", { verifiedEmail: false });

    // WHEN the service pays the ambassador 5
    await deliverPayout({ id: 9401, amount: 5 });
    await drainWithRetries();

    // THEN nothing is credited to anyone; the payout waits for the merchant, with the reason on the page
    expect(creditCalls()).toEqual([]);
    expect(shopify.customers.allCredits()).toEqual([]);
    expect(await credit()).toMatchObject({ state: "unverified_email", currency: "USD" });
    expect(await payoutEvent()).toMatchObject({ state: "held", detail: expect.stringMatching(/has not verified it/) });
    const page = await load(eventsLoader, "/app/events");
    expect(page.payouts.held).toMatchObject([{ payoutId: "9401", state: "unverified_email", reason: expect.stringMatching(/alice@example\.com.*has not verified it.*Check again/) }]);
    const html = renderToString(createElement(AppProvider, { i18n: en }, createElement(PayoutsWaitingCard, { payouts: page.payouts.held, onAnswer: () => {} })));
    expect(html).toContain("Email not verified");
    expect(html).toContain("Check again");
    expect(html).not.toContain("Approve and credit");

    // WHEN the customer verifies their email and the merchant checks again
    impostor.verifiedEmail = true;
    expect(await pageAction({ intent: "recheckPayout", id: page.payouts.held[0]!.id })).toMatchObject({ ok: true });
    await drainWithRetries();

    // THEN it is credited once, to them
    expect(creditsTo(impostor)).toEqual(["5.00 USD"]);
    expect(await credit()).toMatchObject({ state: "credited", customerId: impostor.id });
  });

  it("credits the verified customer with the email, not an unverified one that has it too", async () => {
    shopify.customers.add("alice@example.com", { verifiedEmail: false });
    const alice = shopify.customers.add("Alice@Example.com");
    await deliverPayout({ id: 9402, amount: 5 });
    await drainWithRetries();
    expect(creditsTo(alice)).toEqual(["5.00 USD"]);
    expect(shopify.customers.allCredits()).toHaveLength(1);
  });

  it("credits the customer the service names by id (its uid) when it has the email, verified or not; one with another email is not named", async () => {
    const alice = shopify.customers.add("alice@example.com", { verifiedEmail: false });
    const numeric = alice.id.split("/").at(-1)!;
    await deliverPayout({ id: 9403, amount: 5, internalId: numeric });
    await drainWithRetries();
    expect(creditsTo(alice)).toEqual(["5.00 USD"]);

    // A uid that names someone else: the email decides, and alice's is not verified, so it waits.
    const bob = shopify.customers.add("bob@example.com");
    await deliverPayout({ id: 9404, amount: 6, internalId: bob.id });
    await drainWithRetries();
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { payoutId: "9404" } })).toMatchObject({ state: "unverified_email" });
    expect(shopify.customers.creditsOf(bob)).toEqual([]);
    expect(creditCalls()).toHaveLength(1);
  });
});

describe("the total per ambassador", () => {
  it("holds the payout that would take one ambassador past the 30-day total, with the reason on the page; others and a later month go through; approval credits it", async () => {
    const alice = shopify.customers.add("alice@example.com");
    const bob = shopify.customers.add("bob@example.com");
    // GIVEN the merchant's total of 120.00 (each payout under the 100.00 ceiling)
    expect(await pageAction({ intent: "options", storeCreditPayouts: "true", tagContacts: "false", payoutCeiling: "100", payoutPeriodTotal: "120" })).toMatchObject({ ok: true });
    expect((await load(eventsLoader, "/app/events")).payouts).toMatchObject({ ceiling: "100.00", periodTotal: "120.00" });

    // WHEN the service sends alice 60, 50 and then 20, and bob 90
    await deliverPayout({ id: 9701, amount: 60 });
    await deliverPayout({ id: 9702, amount: 50 });
    await drainWithRetries(1);
    await deliverPayout({ id: 9703, amount: 20 });
    await deliverPayout({ id: 9704, amount: 90, email: "bob@example.com" });
    await drainWithRetries(1);

    // THEN 110.00 reaches alice, the 20 that would make 130.00 waits, bob's is paid
    expect(creditsTo(alice)).toEqual(["60.00 USD", "50.00 USD"]);
    expect(creditsTo(bob)).toEqual(["90.00 USD"]);
    const held = (await load(eventsLoader, "/app/events")).payouts.held;
    expect(held).toMatchObject([{ payoutId: "9703", state: "awaiting_approval", reason: expect.stringMatching(/110\.00 USD credited to alice@example\.com in the last 30 days.*130\.00 USD, above your total of 120\.00 USD/) }]);

    // WHEN the merchant approves it, it is credited once
    expect(await pageAction({ intent: "approvePayout", id: held[0]!.id })).toMatchObject({ ok: true });
    await drainWithRetries(1);
    expect(creditsTo(alice)).toEqual(["60.00 USD", "50.00 USD", "20.00 USD"]);

    // AND 31 days on, the period has moved: a new payout goes through
    pipeline.advance(31 * 86_400_000);
    await deliverPayout({ id: 9705, amount: 60 });
    await drainWithRetries(1);
    expect(creditsTo(alice)).toHaveLength(4);
  });

  it("refuses a total it cannot read, naming the field", async () => {
    expect((await pageAction({ intent: "options", storeCreditPayouts: "true", tagContacts: "false", payoutPeriodTotal: "lots" })).fieldErrors).toEqual({ payoutPeriodTotal: expect.stringMatching(/above 0/) });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ payoutPeriodTotal: "300.00" });
  });
});

describe("disconnecting the service", () => {
  it("retires its webhook secret: a payout-created signed with the old secret is refused and credits nothing", async () => {
    shopify.customers.add("alice@example.com");
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { connectionStatus: "connected" } });
    const oldSecret = endpoint.secret;

    // WHEN the merchant disconnects the service in Settings
    const { status, body } = await submit(settingsAction, "/app/settings", { intent: "disconnect" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true });

    // THEN a payout signed with the old secret is refused, and nothing is stored or credited
    const response = await postPayout({ id: 9801, amount: 5 }, oldSecret);
    expect(response.status).not.toBe(200);
    expect(await prisma.serviceEvent.count()).toBe(0);
    await drainWithRetries(1);
    expect(shopify.customers.allCredits().filter((t) => t.createdAt >= began)).toEqual([]);

    // AND connecting again makes a new secret, which verifies; the old one still does not
    const fresh = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
    expect(fresh.endpointId).toBe(endpoint.endpointId);
    expect(fresh.secret).not.toBe(oldSecret);
    expect((await postPayout({ id: 9802, amount: 5 }, fresh.secret)).status).toBe(200);
    expect((await postPayout({ id: 9803, amount: 5 }, oldSecret)).status).not.toBe(200);
  });
});

describe("an unclear credit", () => {
  /** A credit that landed with its answer lost, and a credit of the same amount the merchant made by hand meanwhile. */
  async function unclear(alice: StandInCustomer) {
    shopify.failNext(CREDIT, "lost-after-acting");
    await deliverPayout({ id: 9301, amount: 5 });
    await pipeline.drain();
    shopify.customers.creditByHand(alice, "5.00");
    await drainWithRetries();
  }

  it("waits for the merchant when the account cannot tell, and a check again reads the account and never sends twice", async () => {
    const alice = shopify.customers.add("alice@example.com");
    await unclear(alice);

    expect(await credit()).toMatchObject({ state: "needs_review", lastError: expect.stringMatching(/more credits of that amount since than the app sent/) });
    expect(await payoutEvent()).toMatchObject({ state: "held" });
    const [held] = (await load(eventsLoader, "/app/events")).payouts.held;
    expect(held).toMatchObject({ state: "needs_review", payoutId: "9301" });

    // WHEN the merchant asks for it to be checked again, twice
    for (let i = 0; i < 2; i++) {
      expect(await pageAction({ intent: "recheckPayout", id: held!.id })).toMatchObject({ ok: true });
      await drainWithRetries();
    }

    // THEN the app read the account each time and sent nothing more: one credit by the app, one by hand
    expect(creditCalls()).toHaveLength(1);
    expect(creditsTo(alice)).toEqual(["5.00 USD", "5.00 USD"]);
    expect(await credit()).toMatchObject({ state: "needs_review", attempts: 1 });
    expect(shopify.callsOf("ReferralBridgeStoreCredits", "ok").length).toBeGreaterThanOrEqual(3);

    // The merchant looked in Shopify and closes it.
    expect(await pageAction({ intent: "closePayout", id: held!.id })).toEqual({ ok: true, message: "Closed: the app will not credit this payout." });
    expect(await payoutEvent()).toMatchObject({ state: "processed", detail: expect.stringContaining("will not credit") });
    expect(await credit()).toMatchObject({ state: "closed" });
  });

  it("a Retry of a failed event whose credit is unclear (as the app left it before) reads the account first and takes the credit it finds", async () => {
    // GIVEN a payout the balance-based check had stopped as needs_review, its event failed, its credit in fact landed
    const alice = shopify.customers.add("alice@example.com", { balance: "3.00" });
    await deliverPayout({ id: 9302, amount: 5 });
    const event = await payoutEvent();
    await prisma.job.updateMany({ data: { status: "failed", lastError: "Check their store credit before retrying." } });
    await prisma.serviceEvent.update({ where: { id: event.id }, data: { state: "failed", detail: "Check their store credit before retrying." } });
    await prisma.payoutCredit.create({
      data: { shop: TEST_SHOP, payoutId: "9302", serviceEventId: event.id, email: "alice@example.com", amount: "5.00", currency: "USD", customerId: alice.id, state: "needs_review", attempts: 1, balanceBefore: "3.00" },
    });
    shopify.customers.creditByHand(alice, "5.00"); // the credit that landed
    shopify.customers.spend(alice, "4.00");
    pipeline.advance(10 * 60_000);

    // WHEN the merchant presses Retry
    expect(await pageAction({ intent: "retry", id: event.id })).toMatchObject({ ok: true });
    await drainWithRetries();

    // THEN no second credit: the one found is recorded as this payout's
    expect(creditCalls()).toEqual([]);
    expect(creditsTo(alice)).toEqual(["5.00 USD"]);
    expect(await credit()).toMatchObject({ state: "credited", transactionId: shopify.customers.creditsOf(alice).at(-1)!.id });
    expect(await payoutEvent()).toMatchObject({ state: "processed", detail: expect.stringContaining("confirmed") });
  });

  it("two payouts of one amount to one customer whose answers were both lost: each takes one of the two credits, none is sent again", async () => {
    const alice = shopify.customers.add("alice@example.com");
    shopify.failNext(CREDIT, "lost-after-acting", "lost-after-acting");
    await deliverPayout({ id: 9303, amount: 5 });
    await deliverPayout({ id: 9304, amount: 5 });
    await drainWithRetries();

    expect(creditCalls()).toHaveLength(2);
    expect(creditsTo(alice)).toEqual(["5.00 USD", "5.00 USD"]);
    const rows = await prisma.payoutCredit.findMany({ orderBy: { payoutId: "asc" } });
    expect(rows.map((r) => r.state)).toEqual(["credited", "credited"]);
    expect(new Set(rows.map((r) => r.transactionId)).size).toBe(2);
  });
});

describe("the page's payouts part", () => {
  const render = (element: ReactElement) => renderToString(createElement(AppProvider, { i18n: en }, element));

  it("shows each held payout with why it waits and the answers it takes", () => {
    const row = (state: HeldPayout["state"], payoutId: string, reason: string): HeldPayout => ({
      id: `c${payoutId}`,
      payoutId,
      email: "alice@example.com",
      amount: "150.00",
      currency: "USD",
      state,
      reason,
      createdAt: "2026-11-26T10:00:00.000Z",
    });
    const html = render(
      createElement(PayoutsWaitingCard, {
        payouts: [row("awaiting_approval", "1", "Above your ceiling of 100.00 USD."), row("wrong_currency", "2", "The program pays in USD."), row("needs_review", "3", "Look at her store credit.")],
        onAnswer: () => {},
      }),
    );
    expect(html).toContain("Payouts waiting for you");
    for (const text of ["Above your ceiling", "Another currency", "Credit unclear", "Above your ceiling of 100.00 USD.", "The program pays in USD.", "Look at her store credit."]) {
      expect(html).toContain(text);
    }
    expect(html.match(/Approve and credit/g)).toHaveLength(1);
    expect(html.match(/Check again/g)).toHaveLength(2);
    expect(html.match(/Close without crediting/g)).toHaveLength(3);
  });

  it("says when no currency is recorded yet that the shop's is taken", () => {
    const fields = (recorded: boolean) =>
      render(createElement(PayoutSettingsFields, { values: { payoutCurrency: recorded ? "USD" : "", payoutCeiling: "100.00", payoutPeriodTotal: "300.00" }, onChange: () => {}, recorded }));
    expect(fields(false)).toContain("Not set yet: the app takes your store&#x27;s currency");
    expect(fields(true)).toContain("the app never converts");
  });
});
