import "../admin/browser-env";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startSandboxAppServer, type AppServer } from "../admin/app-server";
import { connectShop, sandboxCommissions, sandboxRequests, testPipeline, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { shopifyOrder, type OrderOptions } from "../../support/orders";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { applyToCart, checkCode, CODE_PATH, findCustomerReferrer, type AppCaller, type CodeAnswer } from "../../../extensions/pos-referral/src/pos-api";

// Referrals at the counter, as production serves them: the built app under
// server.mjs, the POS extension's own client code (extensions/pos-referral/
// src/pos-api.ts) calling its endpoint with POS session tokens signed like
// Shopify signs them, a stand-in of POS's cart, then the POS order's
// orders/paid webhook (Shopify's sample with source_name "pos", location_id
// and user_id) and the jobs, counted at the sandbox referral service.

const sandbox = useTestSandbox();
let server: AppServer;

beforeAll(async () => {
  server = await startSandboxAppServer();
}, 60_000);

afterAll(() => server?.stop());

const STORE = TEST_SHOP.replace(".myshopify.com", "");
const POS = { locationId: 24_826_418, userId: 548_380_009 };

/** A POS session token as Shopify issues it for the staff member's session: HS256 with the app's secret, dest the shop. */
async function posToken(options: { store?: string; secret?: string; claims?: Record<string, unknown> } = {}): Promise<string> {
  const store = options.store ?? STORE;
  const { token } = await getJwt(store, process.env.SHOPIFY_API_KEY!, options.secret ?? process.env.SHOPIFY_API_SECRET!, {
    iss: `https://${store}.myshopify.com/admin`,
    dest: `https://${store}.myshopify.com`,
    sub: String(POS.userId),
    ...options.claims,
  });
  return token;
}

/** What POS on an iPad sends (Node's fetch says "node", which the app's authenticate refuses as a bot with 410). */
const DEVICE = {
  Origin: "https://extensions.shopifycdn.com",
  "User-Agent": "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Shopify POS/10.2.1",
};

const pos = (token: () => Promise<string | undefined>): AppCaller => ({
  appUrl: server.origin,
  getToken: token,
  fetch: (url, init) => fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...DEVICE } }),
});

/** POS's cart, as far as the extension writes to it. */
function standInCart() {
  const cart = { properties: {} as Record<string, string>, discountCodes: [] as string[] };
  return {
    cart,
    async addCartProperties(properties: Record<string, string>) {
      Object.assign(cart.properties, properties);
    },
    async addCartCodeDiscount(code: string) {
      cart.discountCodes.push(code);
    },
  };
}

async function deliverPaid(order: ReturnType<typeof shopifyOrder>): Promise<number> {
  const response = await fetch(signedWebhook({ topic: "orders/paid", body: order, url: `${server.origin}/webhooks/orders/paid` }));
  await response.text();
  return response.status;
}

/** The POS order a cart like this one becomes: its properties as note attributes, its codes as discount codes. */
function posOrder(cart: ReturnType<typeof standInCart>["cart"], options: OrderOptions) {
  return shopifyOrder({
    pos: POS,
    noteAttributes: Object.entries(cart.properties).map(([name, value]) => ({ name, value })),
    discountCodes: cart.discountCodes,
    ...options,
  });
}

/** The event/record calls the service got for an order. */
async function eventsSent(orderId: string) {
  const ledger = (await (await fetch(`${sandbox.baseUrl}/_sandbox/ledger`)).json()) as { events: { params: Record<string, string> }[] };
  return ledger.events.filter((e) => e.params.transaction_uid === orderId);
}

const recordOf = (orderId: string) => prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId } });

describe("a referral code given at the counter", () => {
  it("is checked at the service through the extension's endpoint, put on the cart, and its POS order is credited once", async () => {
    await connectShop(sandbox);
    // The shop's friend's offer holds Alice's share code as a discount code.
    await prisma.offerCode.create({ data: { shop: TEST_SHOP, campaignUid: "1001", code: "ALICE10", email: "alice@example.com", state: "added" } });
    const caller = pos(() => posToken());

    // GIVEN staff scan the QR code of Alice's share link
    const answer = await checkCode(caller, `${sandbox.baseUrl}/s/ALICE10`);
    expect(answer).toMatchObject({
      status: "ok",
      code: "ALICE10",
      referrer: { firstName: "Alice", lastName: "Archer" },
      offerCode: "ALICE10",
      cartProperties: { _referral_code: "ALICE10", _referral_campaign: "1001" },
    });
    expect(await sandboxRequests(sandbox, "shortcode/get")).toHaveLength(1);
    const cart = standInCart();
    expect(await applyToCart(cart, answer as Extract<CodeAnswer, { status: "ok" }>)).toEqual({ offerApplied: true });

    // WHEN the sale's order is paid, and Shopify delivers its webhook twice
    const order = posOrder(cart.cart, { id: 5_640_000_700_001, email: "maria@example.com", customerEmail: "maria@example.com" });
    expect(order).toMatchObject({ source_name: "pos", location_id: POS.locationId, user_id: POS.userId, checkout_token: null });
    expect([await deliverPaid(order), await deliverPaid(order)]).toEqual([200, 200]);
    await testPipeline().drain();

    // AND once more after it was recorded (Shopify retries a delivery it thinks failed)
    expect(await deliverPaid(order)).toBe(200);
    await testPipeline().drain();

    // THEN one commission for Alice, the order recorded with the code
    const commissions = await sandboxCommissions(sandbox, "5640000700001");
    expect(commissions).toHaveLength(1);
    expect(commissions[0]).toMatchObject({ affiliate_email: "alice@example.com", campaign_uid: "1001", revenue_amount: "90.00" });
    const record = await recordOf("5640000700001");
    expect(record).toMatchObject({ status: "recorded", shortCode: "ALICE10" });
    // Both signals the counter put on the sale were seen: the offer code (which wins) and the cart property.
    const signals = (JSON.parse(record.explanation!) as { signals: { source: string; code: string; won?: boolean }[] }).signals;
    expect(signals.map(({ source, code, won }) => [source, code, won === true]).sort()).toEqual([
      ["cart_attribute", "ALICE10", false],
      ["offer_code", "ALICE10", true],
    ]);
  });

  it("credits a POS sale whose customer has only a phone number, under an address made from the customer id", async () => {
    await connectShop(sandbox);
    const answer = await checkCode(pos(() => posToken()), "alice10");
    expect(answer.status).toBe("ok");
    const cart = standInCart();
    await applyToCart(cart, answer as Extract<CodeAnswer, { status: "ok" }>);
    // No friend's offer in this shop: nothing to apply.
    expect(cart.cart.discountCodes).toEqual([]);

    const order = posOrder(cart.cart, { id: 5_640_000_700_002, email: null, customerEmail: null, customerId: 7_210_000_000_555, customerPhone: "+15555550123" });
    expect(await deliverPaid(order)).toBe(200);
    await testPipeline().drain();

    const [commission] = await sandboxCommissions(sandbox, "5640000700002");
    expect(commission).toMatchObject({ affiliate_email: "alice@example.com" });
    expect((await eventsSent("5640000700002")).map((e) => [e.params.email, e.params.uid, e.params.short_code])).toEqual([
      ["shopify-customer-7210000000555@no-email.invalid", "7210000000555", "alice10"],
    ]);
    expect(await recordOf("5640000700002")).toMatchObject({ status: "recorded" });
  });

  it("skips an anonymous POS sale, with its reason, and sends nothing", async () => {
    await connectShop(sandbox);
    const cart = standInCart();
    await applyToCart(cart, (await checkCode(pos(() => posToken()), "ALICE10")) as Extract<CodeAnswer, { status: "ok" }>);

    const order = posOrder(cart.cart, { id: 5_640_000_700_003, email: null, customerEmail: null, customerId: null });
    expect(await deliverPaid(order)).toBe(200);
    await testPipeline().drain();

    expect(await recordOf("5640000700003")).toMatchObject({
      status: "skipped",
      statusReason: expect.stringMatching(/^Anonymous POS sale: no customer was added to the cart and the order has no email/),
    });
    expect(await eventsSent("5640000700003")).toEqual([]);
    expect(await sandboxCommissions(sandbox, "5640000700003")).toEqual([]);
  });

  it("tells staff when a code is no referrer's, and finds a referrer's code from their email", async () => {
    await connectShop(sandbox);
    const caller = pos(() => posToken());
    expect(await checkCode(caller, "NOSUCHCODE")).toMatchObject({ status: "unknown", message: expect.stringMatching(/isn't a referral code/) });
    expect(await checkCode(caller, "<script>")).toMatchObject({ status: "invalid" });
    expect(await checkCode(caller, "bob@example.com")).toMatchObject({ status: "ok", code: "BOB10", referrer: { firstName: "Bob" } });
    expect(await checkCode(caller, "nobody@example.com")).toMatchObject({ status: "unknown", message: expect.stringMatching(/No ambassador/) });
  });
});

describe("the referrer of the cart's customer", () => {
  it("is their first referrer's: a coupon that referred them gives that ambassador's link, and a later order with another code changes nothing", async () => {
    await connectShop(sandbox);
    const customerId = 7_210_000_000_888;
    const pipeline = testPipeline();
    // Kim's first order carried only Alice's coupon (no link): Alice referred her.
    const first = shopifyOrder({ id: 5_640_000_700_020, email: "kim@example.com", customerEmail: "kim@example.com", customerId, noteAttributes: [], landingSite: "/", discountCodes: ["ALICE-15"] });
    expect(await deliverPaid(first)).toBe(200);
    await pipeline.drain();
    pipeline.advance(31 * 60_000);
    await pipeline.drain();
    expect(await recordOf("5640000700020")).toMatchObject({ status: "recorded", couponCode: "ALICE-15", shortCode: null });
    // A later order through Bob's link: a repeat purchase, Kim stays Alice's.
    const later = shopifyOrder({ id: 5_640_000_700_021, email: "kim@example.com", customerEmail: "kim@example.com", customerId, noteAttributes: [{ name: "_referral_code", value: "BOB10" }] });
    expect(await deliverPaid(later)).toBe(200);
    await pipeline.drain();
    expect(await recordOf("5640000700021")).toMatchObject({ status: "recorded", repeatKind: "repeat" });

    expect(await findCustomerReferrer(pos(() => posToken()), customerId)).toMatchObject({ status: "ok", code: "ALICE10", referrer: { firstName: "Alice" } });
  });

  it("is the code of the order that referred them, checked again at the service; none for a customer never referred", async () => {
    await connectShop(sandbox);
    const customerId = 7_210_000_000_777;
    // An earlier online order of this customer came through Bob's link.
    const online = shopifyOrder({ id: 5_640_000_700_010, email: "lee@example.com", customerEmail: "lee@example.com", customerId, noteAttributes: [{ name: "_referral_code", value: "BOB10" }] });
    expect(await deliverPaid(online)).toBe(200);
    await testPipeline().drain();
    expect(await recordOf("5640000700010")).toMatchObject({ status: "recorded", shortCode: "BOB10" });

    const caller = pos(() => posToken());
    expect(await findCustomerReferrer(caller, customerId)).toMatchObject({ status: "ok", code: "BOB10", referrer: { firstName: "Bob" } });
    expect(await findCustomerReferrer(caller, 7_210_000_000_778)).toMatchObject({ status: "unknown", message: "No earlier order of this customer was referred." });
    // Another shop's token never finds this shop's customers.
    await connectShop(sandbox, { shop: "second-shop.myshopify.com" });
    expect(await findCustomerReferrer(pos(() => posToken({ store: "second-shop" })), customerId)).toMatchObject({ status: "unknown" });
  });
});

describe("the POS endpoint refuses", () => {
  const ask = (token: string | null) =>
    fetch(`${server.origin}${CODE_PATH}?input=ALICE10`, { headers: token === null ? DEVICE : { ...DEVICE, Authorization: `Bearer ${token}` } });

  it("a request without a valid POS session token (none, forged, expired) with 401, asking the service nothing", async () => {
    await connectShop(sandbox);
    const now = Math.floor(Date.now() / 1000);
    const answers = [
      await ask(null),
      await ask(await posToken({ secret: "someone-elses-secret" })),
      await ask(await posToken({ claims: { exp: now - 60, iat: now - 360, nbf: now - 360 } })),
      await ask("not.a.token"),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(await sandboxRequests(sandbox, "shortcode/get")).toEqual([]);
    // The extension shows the refusal as a failure, never as a checked code.
    expect(await checkCode(pos(() => posToken({ secret: "someone-elses-secret" })), "ALICE10")).toMatchObject({ status: "error" });
  });

  it("a token of another shop: 403 where the app is not installed, and never this shop's program where it is", async () => {
    await connectShop(sandbox);
    const notInstalled = await ask(await posToken({ store: "another-shop" }));
    expect(notInstalled.status).toBe(403);
    expect(await notInstalled.json()).toMatchObject({ status: "refused", message: "The app is not installed on this shop" });

    // Installed there, but that shop has no connection: this shop's service is not asked.
    await installShop("second-shop.myshopify.com");
    const other = await ask(await posToken({ store: "second-shop" }));
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ status: "unavailable" });
    expect(await sandboxRequests(sandbox, "shortcode/get")).toEqual([]);
  });

  it("answers the CORS preflight of the extension's origin", async () => {
    const preflight = await fetch(`${server.origin}${CODE_PATH}`, {
      method: "OPTIONS",
      headers: { ...DEVICE, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });
});
