// The headless kit end to end: Hydrogen's own cart handler (createCartHandler)
// against the Storefront API stand-in, which validates every document against
// Shopify's 2026-10 schema; the built app served as production serves it
// (server.mjs), answering the kit's questions and receiving the orders/paid
// webhook of the order that follows; the real sandbox referral service.
import "../../../test/entry/admin/browser-env";
import { cartGetIdDefault, cartSetIdDefault, createCartHandler, createStorefrontClient } from "@shopify/hydrogen";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startAppServer, sandboxAppEnv, type AppServer } from "../../../test/entry/admin/app-server";
import { shopifyOrder } from "../../../test/support/orders";
import { connectShop, sandboxCommissions, testPipeline, useTestSandbox } from "../../../test/support/pipeline";
import { ShopifyAdminStandIn } from "../../../test/support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../../../test/support/shopify-requests";
import { startStorefrontStandIn, type StorefrontStandIn } from "../../../test/support/storefront-standin";
import { applyReferralToCart, fetchOfferCampaigns, fetchShareLinks, hydrogenCart, memoryStore, SHARE_LINKS_PATH, trackReferral, type ApplyResult, type Landing } from "../src";
import { privacyWindow } from "./support/privacy-window";
import { action as referralAction } from "../examples/hydrogen/app/routes/referral";
import { loader as accountReferralsLoader } from "../examples/hydrogen/app/routes/account.referrals";

const sandbox = useTestSandbox();
const admin = new ShopifyAdminStandIn();
let adminServer: { origin: string; close(): Promise<void> };
let storefrontApi: StorefrontStandIn;
let app: AppServer;

beforeAll(async () => {
  adminServer = await admin.serve();
  storefrontApi = await startStorefrontStandIn({ shop: TEST_SHOP });
  app = await startAppServer({ ...sandboxAppEnv(), SHOPIFY_ADMIN_API_ORIGIN: adminServer.origin, SHOPIFY_CUSTOMER_ACCOUNT_API_ORIGIN: storefrontApi.origin });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await storefrontApi?.close();
  await adminServer?.close();
});

const LANDING = "https://shop.example/products/hoodie?mbsy=ALICE10&campaignid=1001";

/** The Hydrogen storefront's cart handler for one request, as a Hydrogen server builds it. */
function hydrogenHandler(requestHeaders = new Headers()) {
  const { storefront } = createStorefrontClient({
    storeDomain: storefrontApi.origin,
    publicStorefrontToken: "public-storefront-token",
    privateStorefrontToken: "private-storefront-token",
    storefrontApiVersion: "2026-10",
    i18n: { language: "EN", country: "US" },
  });
  return createCartHandler({ storefront, getCartId: cartGetIdDefault(requestHeaders), setCartId: cartSetIdDefault() });
}

/** The shop's friend's offer in campaign 1001 is live (in Shopify, not paused). */
async function liveOffer() {
  await prisma.friendOffer.create({ data: { shop: TEST_SHOP, campaignUid: "1001", discountId: "gid://shopify/DiscountCodeNode/1190428819521" } });
  storefrontApi.discountCodes.add("ALICE10");
}

/** Runs the kit on one page view and hands back what its cart step did (or null when it did not run). */
function pageView(href: string, consent: { analytics: boolean; marketing: boolean } | null, offerCampaigns: string[]) {
  const page = privacyWindow(href, consent);
  const store = memoryStore();
  let applied: Promise<ApplyResult> | null = null;
  const handler = hydrogenHandler();
  trackReferral({
    window: page.window,
    store,
    apply: (landing: Landing) => (applied = applyReferralToCart(hydrogenCart(handler), landing, { offerCampaigns })),
  });
  return { page, store, applied: () => applied };
}

describe("a landing from a share link on a Hydrogen storefront", () => {
  it("with consent: writes the code to the cart, applies the friend's offer, and the order is credited once", async () => {
    // GIVEN a connected shop whose campaign 1001 has a live friend's offer
    await connectShop(sandbox);
    await liveOffer();
    const offerCampaigns = await fetchOfferCampaigns({ appUrl: app.origin, shop: TEST_SHOP });
    expect(offerCampaigns).toEqual(["1001"]);
    storefrontApi.calls.length = 0;

    // WHEN a visitor who allows analytics and marketing lands from Alice's link
    const view = pageView(LANDING, { analytics: true, marketing: true }, offerCampaigns);
    const result = await view.applied();

    // THEN the code is kept, and the cart Hydrogen created carries it and the offer code
    expect(view.store.read()).toMatchObject({ code: "ALICE10", campaign: "1001" });
    expect(result).toMatchObject({ created: true, attributesWritten: true, discountCodeApplied: "ALICE10" });
    const cart = storefrontApi.carts.get(result!.cart!.id)!;
    expect(cart.attributes).toEqual([
      { key: "_referral_code", value: "ALICE10" },
      { key: "_referral_campaign", value: "1001" },
    ]);
    expect(cart.discountCodes).toEqual([{ code: "ALICE10", applicable: true }]);
    // Hydrogen asks nothing for a visitor with no cart id yet; its cartCreate is valid at 2026-10.
    expect(storefrontApi.calls.map((c) => [c.fields, c.invalid])).toEqual([[["cartCreate"], []]]);

    // AND the order that follows (Shopify copies the cart's attributes to note_attributes) is credited to Alice once
    const order = shopifyOrder({
      id: 6_120_000_000_000_042n,
      email: "jon@example.com",
      customerEmail: "jon@example.com",
      landingSite: null,
      noteAttributes: cart.attributes.map(({ key, value }) => ({ name: key, value })),
      discountCodes: cart.discountCodes.map((d) => d.code),
    });
    const pipeline = testPipeline();
    for (let delivery = 0; delivery < 2; delivery++) {
      const response = await fetch(signedWebhook({ topic: "orders/paid", body: order, url: `${app.origin}/webhooks/orders/paid` }));
      await response.text();
      expect(response.status).toBe(200);
    }
    await pipeline.drain();
    const commissions = await sandboxCommissions(sandbox, "6120000000000042");
    expect(commissions).toHaveLength(1);
    expect(commissions[0]).toMatchObject({ affiliate_email: "alice@example.com", campaign_uid: "1001" });
    const record = await prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId: "6120000000000042" } });
    expect(record).toMatchObject({ status: "recorded", shortCode: "ALICE10" });
  });

  it("a later page view with the cart already in step writes nothing; a cart whose attributes were lost gets them back, the others' kept", async () => {
    await connectShop(sandbox);
    const first = pageView(LANDING, { analytics: true, marketing: true }, []);
    const { cart } = (await first.applied())!;
    storefrontApi.carts.get(cart!.id)!.attributes = [{ key: "gift_note", value: "for Sam" }];

    const requestHeaders = new Headers({ Cookie: `cart=${cart!.id.split("/").pop()}` });
    const handler = hydrogenHandler(requestHeaders);
    const again = await applyReferralToCart(hydrogenCart(handler), { kept: first.store.read(), arrived: null }, { offerCampaigns: [] });
    expect(again).toMatchObject({ created: false, attributesWritten: true, discountCodeApplied: null });
    expect(storefrontApi.carts.get(cart!.id)!.attributes).toEqual([
      { key: "gift_note", value: "for Sam" },
      { key: "_referral_code", value: "ALICE10" },
      { key: "_referral_campaign", value: "1001" },
    ]);
    const quiet = await applyReferralToCart(hydrogenCart(handler), { kept: first.store.read(), arrived: null }, { offerCampaigns: [] });
    expect(quiet).toMatchObject({ attributesWritten: false, discountCodeApplied: null });
    expect(storefrontApi.calls.every((c) => c.invalid.length === 0)).toBe(true);
  });

  it("with consent refused: nothing is kept and nothing is written, until the visitor allows both", async () => {
    await connectShop(sandbox);
    storefrontApi.calls.length = 0;
    const cartsBefore = storefrontApi.carts.size;

    const view = pageView(LANDING, { analytics: true, marketing: false }, ["1001"]);
    view.page.choose({ analytics: false, marketing: false });
    view.page.choose({ analytics: true, marketing: false });
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(view.applied()).toBeNull();
    expect(view.store.read()).toBeNull();
    expect(storefrontApi.calls).toEqual([]);
    expect(storefrontApi.carts.size).toBe(cartsBefore);

    // The visitor changes their mind on the banner: now it runs, once.
    view.page.choose({ analytics: true, marketing: true });
    view.page.choose({ analytics: true, marketing: true });
    expect((await view.applied())?.attributesWritten).toBe(true);
    expect(storefrontApi.calls.filter((c) => c.fields.includes("cartCreate"))).toHaveLength(1);
  });

  it("without the Customer Privacy API on the page: waits, and writes nothing", async () => {
    await connectShop(sandbox);
    storefrontApi.calls.length = 0;
    const view = pageView(LANDING, null, ["1001"]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(view.applied()).toBeNull();
    expect(storefrontApi.calls).toEqual([]);
  });
});

describe("the Hydrogen example's routes", () => {
  /** What a Hydrogen app's context holds for the example (createHydrogenContext makes it). */
  const hydrogenContext = (cart: ReturnType<typeof hydrogenHandler>, customerToken?: string) => ({
    cart,
    customerAccount: { isLoggedIn: async () => !!customerToken, getAccessToken: async () => customerToken },
    env: { PUBLIC_STORE_DOMAIN: TEST_SHOP, REFERRAL_BRIDGE_APP_URL: app.origin },
  });
  type RouteArgs = Parameters<typeof referralAction>[0];
  const args = (request: Request, context: unknown) => ({ request, context, params: {} }) as unknown as RouteArgs;

  it("/referral writes the posted landing to a new cart with the offer code and sets Hydrogen's cart cookie; a bad body is a 400", async () => {
    await connectShop(sandbox);
    await liveOffer();
    const page = privacyWindow(LANDING, { analytics: true, marketing: true });
    const posted: Promise<unknown>[] = [];
    const cart = hydrogenHandler();
    trackReferral({
      window: page.window,
      store: memoryStore(),
      apply: (landing) => {
        const request = new Request("https://shop.example/referral", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(landing) });
        const answer = referralAction(args(request, hydrogenContext(cart)));
        posted.push(answer);
        return answer;
      },
    });
    const answer = (await posted[0]) as { data: unknown; init: { headers: Headers } };
    expect(answer.data).toEqual({ attributesWritten: true, discountCodeApplied: "ALICE10" });
    const cookie = new Headers(answer.init.headers).get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/^cart=[0-9a-f]+/);
    const made = [...storefrontApi.carts.values()].find((c) => cookie.includes(c.id.split("/").pop()!.split("?")[0]!))!;
    expect(made.attributes.map((a) => a.value)).toEqual(["ALICE10", "1001"]);
    expect(made.discountCodes).toEqual([{ code: "ALICE10", applicable: true }]);

    const bad = (await referralAction(args(new Request("https://shop.example/referral", { method: "POST", body: '{"kept":{"code":"<script>"}}' }), hydrogenContext(hydrogenHandler())))) as { init: { status: number } };
    expect(bad.init.status).toBe(400);
  });

  it("/account/referrals shows the signed-in customer's links, and a signed-out visitor the guest state", async () => {
    await connectShop(sandbox);
    const aliceId = admin.customers.add("alice@example.com").id.split("/").pop()!;
    const token = storefrontApi.issueCustomerToken(TEST_SHOP, aliceId);
    const loaderArgs = (customerToken?: string) => args(new Request("https://shop.example/account/referrals"), hydrogenContext(hydrogenHandler(), customerToken)) as unknown as Parameters<typeof accountReferralsLoader>[0];
    const signedIn = await accountReferralsLoader(loaderArgs(token));
    expect(signedIn.state.kind).toBe("ok");
    expect(await accountReferralsLoader(loaderArgs())).toEqual({ state: { kind: "guest" } });
  });
});

describe("the share-link endpoint for a headless storefront", () => {
  const ask = (token: string | null, query = `shop=${TEST_SHOP}`) =>
    fetch(`${app.origin}${SHARE_LINKS_PATH}?${query}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

  it("answers the token's owner with their links, and refuses a token of another shop, a revoked one, a forged one, or none", async () => {
    await connectShop(sandbox);
    const alice = admin.customers.add("alice@example.com");
    const aliceId = alice.id.split("/").pop()!;
    const aliceToken = storefrontApi.issueCustomerToken(TEST_SHOP, aliceId);

    // Alice's own token: her links, read through the kit's client as a Hydrogen loader would.
    const links = await fetchShareLinks({ appUrl: app.origin, shop: TEST_SHOP, customerAccessToken: aliceToken });
    expect(links.kind).toBe("ok");
    if (links.kind === "ok") expect(links.links.map((l) => l.url)).toContain(`${sandbox.baseUrl}/s/ALICE10`);
    expect(storefrontApi.calls.filter((c) => c.api === "customer").every((c) => c.invalid.length === 0)).toBe(true);

    // Nothing in the request but the token names the customer.
    const named = await ask(aliceToken, `shop=${TEST_SHOP}&customer_id=999&logged_in_customer_id=999`);
    expect(((await named.json()) as { ambassador?: { email: string } }).ambassador?.email).toBe("alice@example.com");

    // A token of the same customer id issued by another shop is not this shop's customer.
    const otherShop = storefrontApi.issueCustomerToken("another-shop.myshopify.com", aliceId);
    const refused = await ask(otherShop);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ status: "error", message: "The customer token is not valid for this shop." });
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe("*");

    expect((await ask("shcat_forged0000")).status).toBe(401);
    expect((await ask(null)).status).toBe(401);
    expect((await ask(aliceToken, "shop=not-a-shop.example.com")).status).toBe(400);

    // Another customer's token answers that customer, never Alice.
    const bobToken = storefrontApi.issueCustomerToken(TEST_SHOP, admin.customers.add("bob@example.com").id.split("/").pop()!);
    const bob = (await (await ask(bobToken)).json()) as { ambassador?: { email: string } };
    expect(bob.ambassador?.email).toBe("bob@example.com");

    // Signed out everywhere: a session's token Shopify no longer knows is refused. (One the app confirmed
    // a moment ago is remembered for up to a minute: decision 034.)
    const otherSession = storefrontApi.issueCustomerToken(TEST_SHOP, admin.customers.add("sam@example.com").id.split("/").pop()!);
    storefrontApi.revokeTokens();
    expect((await ask(otherSession)).status).toBe(401);
    expect((await ask(bobToken)).status).toBe(200);
  });
});
