// The friend's offer end to end: the merchant's choice on the card, the job
// queue, the real sandbox service and the Shopify Admin stand-in (documents
// checked against Shopify's published schema).
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { handleAppUninstalled } from "../../../app/wiring/uninstall.server";
import { redactShop } from "../../../app/domains/privacy/redact-shop.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { applyContactCreated } from "../../../app/domains/service-events/contact-events.server";
import { offerViews, saveOffer, setOfferPaused } from "../../../app/domains/offers/offer-page.server";
import { OFFER_DEFAULTS, type OfferSettings } from "../../../app/domains/offers/offer-settings";
import { API_VERSION } from "../../../app/wiring/shopify.server";
import { connectShop as connectShopToService } from "../../../app/entry/admin/connection.server";
import { getEnv } from "../../../app/wiring/env.server";
import type { SandboxHandle } from "../../../sandbox/server";
import { STANDIN_API_VERSION } from "../../support/admin-schema";
import { TEST_SHOP } from "../../support/shopify-requests";
import type { ReferralClient } from "../../../app/platform/referral-api";
import type { TestPipeline } from "../../support/pipeline";
import type { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { useOfferWorld } from "./offer-world";

let sandbox: SandboxHandle;
let pipeline: TestPipeline;
let shopify: ShopifyAdminStandIn;
let service: ReferralClient;
const TITLE = "Demo Outfitters referral: ";

const world = useOfferWorld();
beforeEach(() => {
  ({ sandbox, pipeline, shopify, service } = world);
});

async function offer(settings: Partial<OfferSettings> = {}, campaignUid = "1001") {
  await saveOffer(prisma, TEST_SHOP, campaignUid, { ...OFFER_DEFAULTS, ...settings });
  await pipeline.drain();
  expect(shopify.refused).toEqual([]);
}

const codesOf = (state: string) =>
  prisma.offerCode.findMany({ where: { shop: TEST_SHOP, state }, orderBy: { code: "asc" } }).then((rows) => rows.map((r) => r.code));

describe("the friend's offer in Shopify", () => {
  it("serves the schema of the app's Admin API version, and refuses a misspelt field", () => {
    expect(STANDIN_API_VERSION).toBe(API_VERSION);
    const answer = shopify.answer("query Bad { shop { currencyCodee } }", {});
    expect(answer.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('Cannot query field "currencyCodee"') })]);
  });

  it("creates a percentage discount from the campaign's discount value, new customers once each, holding every ambassador's code", async () => {
    await offer();
    const discount = shopify.discountTitled(TITLE);
    expect(discount.kind).toBe("basic");
    expect(discount.input).toMatchObject({
      title: `${TITLE}Friends & Family`,
      appliesOncePerCustomer: true,
      customerGets: { value: { percentage: 0.1 }, items: { all: true } },
      context: { customerSegments: { add: [expect.stringMatching(/^gid:\/\/shopify\/Segment\//)] } },
      combinesWith: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: true },
    });
    expect([...shopify.segments.values()]).toEqual([expect.objectContaining({ query: "number_of_orders = 0" })]);
    expect(shopify.codesOf(discount.id)).toEqual(expect.arrayContaining(["ALICE10", "BOB10", "DAN10"]));
    expect(await codesOf("waiting")).toEqual([]);
    const view = (await offerViews(prisma, TEST_SHOP))["1001"]!;
    expect(view).toMatchObject({ inShopify: true, codesInShopify: shopify.codesOf(discount.id).length, codesWaiting: 0, lastError: null });
    expect(view.lastSyncAt).not.toBeNull();
  });

  it("creates a fixed amount discount with a minimum subtotal, for everyone", async () => {
    await offer({ kind: "fixed_amount", value: "7.50", minimumSubtotal: "40", eligibility: "everyone", oncePerCustomer: false });
    const discount = shopify.discountTitled(TITLE);
    expect(discount.input).toMatchObject({
      customerGets: { value: { discountAmount: { amount: "7.50", appliesOnEachItem: false } } },
      minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "40.00" } },
      context: { all: "ALL" },
      appliesOncePerCustomer: false,
    });
  });

  it("sends an amount off and a minimum subtotal rounded to the shop currency's minor unit", async () => {
    // GIVEN a shop that sells in yen (no minor unit) and one in dinars (three decimals)
    shopify.shopCurrency = "JPY";
    await offer({ kind: "fixed_amount", value: "7.50", minimumSubtotal: "40.49", eligibility: "everyone", oncePerCustomer: false });
    expect(shopify.discountTitled(TITLE).input).toMatchObject({
      customerGets: { value: { discountAmount: { amount: "8" } } },
      minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "40" } },
    });
    shopify.shopCurrency = "KWD";
    await offer({ kind: "fixed_amount", value: "7.5", minimumSubtotal: null, eligibility: "everyone", oncePerCustomer: false });
    expect(shopify.discountTitled(TITLE).input).toMatchObject({ customerGets: { value: { discountAmount: { amount: "7.500" } } }, minimumRequirement: null });
  });

  it("does not send an amount off that rounds to nothing in the shop's currency, and says why", async () => {
    shopify.shopCurrency = "JPY";
    await offer({ kind: "fixed_amount", value: "0.40", eligibility: "everyone" });
    expect(shopify.discounts.size).toBe(0);
    expect((await offerViews(prisma, TEST_SHOP))["1001"]!.lastError).toBe("The friend's amount (0.40) is less than the smallest amount in JPY: set a larger amount.");
  });

  it("creates a free shipping discount, and moves the codes to it when the merchant changes the kind", async () => {
    await offer();
    const first = shopify.discountTitled(TITLE);
    await offer({ kind: "free_shipping" });
    const discount = shopify.discountTitled(TITLE);
    expect(discount.id).not.toBe(first.id);
    expect(discount.kind).toBe("free_shipping");
    expect(discount.input).toMatchObject({ destination: { all: true }, combinesWith: { shippingDiscounts: false } });
    expect(discount.input).not.toHaveProperty("customerGets");
    expect(shopify.codesOf(discount.id)).toEqual(expect.arrayContaining(["ALICE10", "BOB10"]));
  });

  it("adds 1,000 ambassadors' codes in 4 bulk calls of at most 250, following each bulk creation to its result", async () => {
    shopify.bulkPollsBeforeDone = 1;
    const seeded = await countActive();
    for (let i = 0; i < 1_000 - seeded; i += 1) await service.getAmbassador({ email: `friend${i}@example.com`, autoCreate: true });
    await offer();
    const discount = shopify.discountTitled(TITLE);
    // One code creates the discount; the other 999 go 250 at a time.
    const bulk = shopify.callsOf("ReferralBridgeOfferAddCodes", "ok");
    expect(bulk.map((c) => (c.variables.codes as unknown[]).length)).toEqual([250, 250, 250, 249]);
    expect(shopify.codesOf(discount.id)).toHaveLength(1_000);
    expect(shopify.callsOf("ReferralBridgeOfferBulkStatus", "ok").length).toBeGreaterThanOrEqual(8);
    expect((await offerViews(prisma, TEST_SHOP))["1001"]).toMatchObject({ codesInShopify: 1_000, codesWaiting: 0 });
  }, 120_000);

  it("keeps to Shopify's rate limit: paces by extensions.cost and retries a THROTTLED answer", async () => {
    for (let i = 0; i < 600; i += 1) await service.getAmbassador({ email: `pal${i}@example.com`, autoCreate: true });
    // A small bucket: a status query of 250 codes is requested at 754 points (2 + 250 × 3), the bucket holds 1,000.
    shopify.setBucket(1_000, 500);
    shopify.throttleNext(1);
    await offer();
    const discount = shopify.discountTitled(TITLE);
    expect(shopify.codesOf(discount.id).length).toBeGreaterThan(600);
    const throttled = shopify.calls.filter((c) => c.outcome === "throttled");
    // The forced one, and at most one more: the app waits for the bucket instead of hitting the limit.
    expect(throttled.length).toBeGreaterThanOrEqual(1);
    expect(throttled.length).toBeLessThanOrEqual(2);
  }, 120_000);

  it("reports a code another discount already holds and leaves that discount as it is", async () => {
    const promotion = shopify.addForeignDiscount("Spring sale", ["BOB10"]);
    await offer();
    expect(await codesOf("taken")).toEqual(["BOB10"]);
    expect(shopify.codesOf(promotion)).toEqual(["BOB10"]);
    expect(shopify.codesOf(shopify.discountTitled(TITLE).id)).not.toContain("BOB10");
    expect((await offerViews(prisma, TEST_SHOP))["1001"]).toMatchObject({ takenCodes: ["BOB10"], codesTaken: 1 });
  });

  it("removes a deactivated ambassador's code at the next sync", async () => {
    await offer();
    const discount = shopify.discountTitled(TITLE);
    expect(shopify.codesOf(discount.id)).toContain("ALICE10");
    await service.updateAmbassador({ email: "alice@example.com", isDeactivated: true });
    await saveOffer(prisma, TEST_SHOP, "1001", OFFER_DEFAULTS);
    await pipeline.drain();
    expect(shopify.codesOf(discount.id)).not.toContain("ALICE10");
    expect(shopify.codesOf(discount.id)).toContain("BOB10");
    expect(await codesOf("removed")).toEqual(["ALICE10"]);
  });

  it("adds a new ambassador's code at once when the service says they enrolled, without paging the program", async () => {
    await offer();
    const { ambassador } = await service.getAmbassador({ email: "newpal@example.com", autoCreate: true });
    const code = ambassador.campaignLinks.find((l) => l.campaignUid === "1001")!.url!.split("/").pop()!;
    const pagedBefore = sandbox.ledger().requests.filter((r) => r.operation === "ambassador/all").length;
    await applyContactCreated({ db: prisma, adminForShop: shopify.access(), appSecret: "test-api-secret" }, TEST_SHOP, { contact: { email: "newpal@example.com" } });
    await pipeline.drain();
    expect(shopify.codesOf(shopify.discountTitled(TITLE).id)).toContain(code);
    expect(sandbox.ledger().requests.filter((r) => r.operation === "ambassador/all").length).toBe(pagedBefore);
  });

  it("brings every offer in step when the service is connected again", async () => {
    await offer();
    const ctx = { db: prisma, credentialsKey: getEnv().CREDENTIALS_KEY, network: { allowLoopback: true } };
    const connected = await connectShopToService(ctx, TEST_SHOP, { baseUrl: sandbox.baseUrl, username: sandbox.username, token: sandbox.token });
    expect(connected.ok).toBe(true);
    expect(await prisma.job.count({ where: { kind: "offer.sync", status: "queued", runAt: { lte: new Date() } } })).toBe(1);
  });

  it("pauses and resumes the discount in Shopify", async () => {
    await offer();
    const discount = shopify.discountTitled(TITLE);
    await setOfferPaused(prisma, TEST_SHOP, "1001", true);
    await pipeline.drain();
    expect(discount.active).toBe(false);
    expect(shopify.appMetafields.get("referral_bridge.offer_campaigns")).toBe("none");
    expect((await offerViews(prisma, TEST_SHOP))["1001"]).toMatchObject({ paused: true, lastError: null });
    await setOfferPaused(prisma, TEST_SHOP, "1001", false);
    await pipeline.drain();
    expect(discount.active).toBe(true);
    // The storefront embed applies codes for live offers only.
    expect(shopify.appMetafields.get("referral_bridge.offer_campaigns")).toBe("1001");
    expect(shopify.refused).toEqual([]);
  });

  it("schedules the next sync, one per period", async () => {
    await offer();
    const scheduled = await prisma.job.findMany({ where: { shop: TEST_SHOP, kind: "offer.sync", status: "queued" } });
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.runAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("stops calling Shopify after uninstall, and shop/redact forgets the offers", async () => {
    await offer();
    const before = shopify.calls.length;
    await handleAppUninstalled(prisma, { shop: TEST_SHOP, hadSession: true, topic: "app/uninstalled" });
    await setOfferPaused(prisma, TEST_SHOP, "1001", true);
    pipeline.ctx.adminForShop = (await import("../../../app/wiring/admin-access.server")).shopifyAdminForShop(prisma);
    await pipeline.drain();
    expect(shopify.calls.length).toBe(before);
    const job = await prisma.job.findFirst({ where: { shop: TEST_SHOP, kind: "offer.sync" }, orderBy: { createdAt: "desc" } });
    expect(job?.status).toBe("paused");
    await redactShop(prisma, createLogger({ level: "silent" }), { shop: TEST_SHOP, webhookId: null });
    expect(await prisma.friendOffer.count({ where: { shop: TEST_SHOP } })).toBe(0);
    expect(await prisma.offerCode.count({ where: { shop: TEST_SHOP } })).toBe(0);
  });
});

async function countActive(): Promise<number> {
  let n = 0;
  for await (const _ of service.iterateAmbassadors({ isActive: true })) n += 1;
  return n;
}
