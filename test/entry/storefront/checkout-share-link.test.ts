// The checkout extension's backend route, /api/checkout/share-link (thank-you
// and order status pages): session tokens signed like Shopify signs them, the
// real sandbox service, and the extension's own data code
// (extensions/checkout-share-link/src/share-link-state.ts).
import { adminApi } from "./support/admin-api-stub";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action, loader } from "../../../app/routes/api.checkout.share-link";
import { loader as customerAccountLoader } from "../../../app/routes/api.customer-account.links";
import prisma from "../../../app/wiring/db.server";
import { enqueueMissingAmbassadorCode } from "../../../app/domains/offers/enqueue-offer.server";
import { MESSAGES } from "../../../app/domains/storefront/share-links.server";
import type { ShareLinksAnswer } from "../../../app/domains/storefront/share-links-contract";
import {
  accountUrl,
  fetchShareLinkState,
  SHARE_LINK_PATH,
  shareLinkView,
  shareTargets,
  type AccountLink,
} from "../../../extensions/checkout-share-link/src/share-link-state";
import type { SandboxHandle } from "../../../sandbox/server";
import { startTestSandbox } from "../../support/pipeline";
import { customerAccountRequest, EXTENSION_ORIGIN, respond, SHOP, type TokenOptions } from "./support/requests";
import { CUSTOMERS, OTHER_SHOP, resetWorld, serviceOperations, setUpShop } from "./support/world";

const { alice, nina } = CUSTOMERS;

let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await resetWorld(sandbox);
});

const ask = (request: Request) => respond(request.method === "GET" ? loader : action, request);
const checkoutRequest = (options: TokenOptions = {}) => customerAccountRequest({ ...options, path: SHARE_LINK_PATH });
const body = async (response: Response) => (await response.json()) as ShareLinksAnswer;

describe("checkout share link route", () => {
  it("answers a valid token with the buyer's own links, scoped to the token's shop, with CORS headers", async () => {
    await setUpShop(sandbox);

    const response = await ask(await checkoutRequest({ customerId: alice.id }));

    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const answer = await body(response);
    expect(answer.status === "ok" && answer.ambassador.email).toBe(alice.email);
    expect(answer.status === "ok" && answer.links.map((link) => link.url)).toEqual([
      `${sandbox.baseUrl}/s/ALICE10`,
      `${sandbox.baseUrl}/s/ALICEPTS`,
    ]);
    // The buyer is the token's `sub`, looked up in the token's shop (`dest`) and nowhere else.
    expect(adminApi.calls.map((call) => [call.shop, call.variables.id])).toEqual([[SHOP, `gid://shopify/Customer/${alice.id}`]]);
  });

  it("refuses a forged token (another secret) with 401 and asks no one anything", async () => {
    await setUpShop(sandbox);
    const response = await ask(await checkoutRequest({ customerId: alice.id, secret: "someone-elses-secret" }));
    expect(response.status).toBe(401);
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });

  it("refuses an expired token with 401", async () => {
    await setUpShop(sandbox);
    const now = Math.floor(Date.now() / 1000);
    const response = await ask(await checkoutRequest({ customerId: alice.id, claims: { exp: now - 60, iat: now - 360, nbf: now - 360 } }));
    expect(response.status).toBe(401);
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });

  it("keeps another shop's token to that shop: the same customer id never gets this shop's answer", async () => {
    await setUpShop(sandbox); // referral-demo is connected
    await setUpShop(sandbox, { shop: OTHER_SHOP, connected: false }); // another-shop is installed, not connected
    // Alice's answer at referral-demo is cached now.
    expect((await body(await ask(await checkoutRequest({ customerId: alice.id })))).status).toBe("ok");
    const operations = serviceOperations(sandbox).length;

    const response = await ask(await checkoutRequest({ customerId: alice.id, store: "another-shop" }));

    expect(response.status).toBe(200);
    expect(await body(response)).toEqual({ status: "unavailable", message: MESSAGES.unavailable });
    expect(serviceOperations(sandbox)).toHaveLength(operations);
    expect(adminApi.calls.map((call) => call.shop)).toEqual([SHOP]);
  });

  it("refuses a token whose dest is not a shop (400) and one whose sub is not a customer (400)", async () => {
    await setUpShop(sandbox);
    expect((await ask(await checkoutRequest({ customerId: alice.id, claims: { dest: "evil.example.com" } }))).status).toBe(400);
    expect((await ask(await checkoutRequest({ claims: { sub: "gid://shopify/StaffMember/1" } }))).status).toBe(400);
    expect(adminApi.calls).toEqual([]);
  });

  it("answers a guest checkout (a token without a customer) as a guest and asks no one anything", async () => {
    await setUpShop(sandbox, { autoEnrol: true });
    const response = await ask(await checkoutRequest({ customerId: null }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await body(response)).toEqual({ status: "guest" });
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });

  it("queues a newly enrolled buyer's share code for the shop's friend's offer at once, and only once", async () => {
    await setUpShop(sandbox, { autoEnrol: true });
    await prisma.friendOffer.create({ data: { shop: SHOP, campaignUid: "1001" } });

    const answer = await body(await ask(await checkoutRequest({ customerId: nina.id })));

    expect(answer.status).toBe("ok");
    const jobs = await prisma.job.findMany({ where: { shop: SHOP, kind: "offer.sync" } });
    expect(jobs.map((job) => JSON.parse(job.payload))).toEqual([{ campaignUid: "1001", email: nina.email }]);
    // Looked up again before the job ran: nothing more is queued.
    expect(await enqueueMissingAmbassadorCode(prisma, SHOP, nina.email)).toBe(0);
  });

  it("enrols a new buyer when the shop enrols automatically, and not otherwise", async () => {
    await setUpShop(sandbox);
    expect(await body(await ask(await checkoutRequest({ customerId: nina.id })))).toEqual({
      status: "not_enrolled",
      reason: "not_member",
      message: MESSAGES.notEnrolled,
    });
    expect(sandbox.ledger().ambassadors.some((a) => a.email === nina.email)).toBe(false);

    await resetWorld(sandbox);
    await setUpShop(sandbox, { autoEnrol: true, newAmbassadorGroup: "1" });
    const answer = await body(await ask(await checkoutRequest({ customerId: nina.id })));
    expect(answer.status === "ok" && answer.ambassador.email).toBe(nina.email);
    expect(sandbox.ledger().ambassadors.find((a) => a.email === nina.email)).toMatchObject({ uid: nina.id, groups: ["1"] });
  });

  it("answers the CORS preflight with 204, and any other method with 405", async () => {
    const preflight = new Request(`${process.env.SHOPIFY_APP_URL}${SHARE_LINK_PATH}`, {
      method: "OPTIONS",
      headers: { Origin: EXTENSION_ORIGIN, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
    });
    const response = await ask(preflight);
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
    await setUpShop(sandbox);
    expect((await ask(await checkoutRequest({ customerId: alice.id, method: "POST" }))).status).toBe(405);
  });

  it("gives the same answer as the customer account route (one implementation behind both)", async () => {
    await setUpShop(sandbox);
    const checkout = await body(await ask(await checkoutRequest({ customerId: alice.id })));
    const account = await body(await respond(customerAccountLoader, await customerAccountRequest({ customerId: alice.id })));
    expect(checkout).toEqual(account);
  });
});

describe("the checkout extension's data logic against the route", () => {
  // What the extension's fetch reaches: the route, as Remix would call it.
  const routeFetch = async (url: string, init: RequestInit) => {
    expect(new URL(url).pathname).toBe(SHARE_LINK_PATH);
    const request = new Request(url, init);
    request.headers.set("Origin", EXTENSION_ORIGIN);
    return ask(request);
  };
  const tokenFor = (options: TokenOptions) => async () =>
    (await checkoutRequest(options)).headers.get("Authorization")!.replace("Bearer ", "");
  const appUrl = `${process.env.SHOPIFY_APP_URL}/`;
  const storefrontUrl = "https://demo-outfitters.example";

  it("fetches with the session token, parses the links and shows them (enrolled)", async () => {
    await setUpShop(sandbox);
    const state = await fetchShareLinkState({ appUrl, getToken: tokenFor({ customerId: alice.id }), fetch: routeFetch });
    const view = shareLinkView(state, {}, storefrontUrl);
    expect(view).toEqual({
      kind: "enrolled",
      links: [
        expect.objectContaining({ campaignName: "Friends & Family", url: `${sandbox.baseUrl}/s/ALICE10`, socialEnabled: true }),
        expect.objectContaining({ campaignName: "Points Club", url: `${sandbox.baseUrl}/s/ALICEPTS` }),
      ],
    });
  });

  it("shows a buyer who is not an ambassador the not-enrolled text, by the route's reason", async () => {
    await setUpShop(sandbox);
    const state = await fetchShareLinkState({ appUrl, getToken: tokenFor({ customerId: nina.id }), fetch: routeFetch });
    expect(shareLinkView(state, {})).toEqual({ kind: "not_enrolled", reason: "not_member" });
  });

  it("invites a guest to create an account, or shows nothing, as the merchant chose", async () => {
    await setUpShop(sandbox);
    const state = await fetchShareLinkState({ appUrl, getToken: tokenFor({ customerId: null }), fetch: routeFetch });
    expect(state).toEqual({ kind: "guest" });
    expect(shareLinkView(state, {}, storefrontUrl)).toEqual({ kind: "guest", accountUrl: `${storefrontUrl}/account` });
    expect(shareLinkView(state, { hide_for_guests: false }, `${storefrontUrl}/en/`)).toEqual({ kind: "guest", accountUrl: `${storefrontUrl}/account` });
    expect(shareLinkView(state, { hide_for_guests: true }, storefrontUrl)).toEqual({ kind: "hidden" });
    expect(shareLinkView(state, {})).toEqual({ kind: "guest", accountUrl: null });
  });

  it("turns a refused token, a failing token source, a network failure and a 503 into the error state", async () => {
    await setUpShop(sandbox);
    const forged = await fetchShareLinkState({ appUrl, getToken: tokenFor({ customerId: alice.id, secret: "forged" }), fetch: routeFetch });
    expect(shareLinkView(forged, {})).toEqual({ kind: "error" });
    const noToken = async () => {
      throw new Error("no session token");
    };
    expect(await fetchShareLinkState({ appUrl, getToken: noToken, fetch: routeFetch })).toEqual({ kind: "error" });
    const offline = async () => {
      throw new TypeError("fetch failed");
    };
    expect(await fetchShareLinkState({ appUrl, getToken: tokenFor({ customerId: alice.id }), fetch: offline })).toEqual({ kind: "error" });
    const busy = async () => Response.json({ status: "error", message: MESSAGES.error }, { status: 503 });
    expect(await fetchShareLinkState({ appUrl, getToken: tokenFor({ customerId: alice.id }), fetch: busy })).toEqual({ kind: "error" });
  });

  it("shows nothing when the shop has no working connection", async () => {
    await setUpShop(sandbox, { connected: false });
    const state = await fetchShareLinkState({ appUrl, getToken: tokenFor({ customerId: alice.id }), fetch: routeFetch });
    expect(state.kind).toBe("unavailable");
    expect(shareLinkView(state, {})).toEqual({ kind: "hidden" });
  });
});

describe("the checkout extension's view logic", () => {
  const link: AccountLink = {
    campaignName: "Friends & Family",
    description: "",
    url: "https://service.example/s/ALICE10?x=1&y=2",
    socialEnabled: false,
    totalMoneyEarned: "0.00",
    totalPointsEarned: "0",
  };

  it("is loading until the answer arrives", () => {
    expect(shareLinkView({ kind: "loading" }, {})).toEqual({ kind: "loading" });
  });

  it("shows nothing for an ambassador without a link in the shop's campaigns", () => {
    const ambassador = { balanceMoney: "0", balancePoints: "0", moneyPaid: "0", pointsPaid: "0", uniqueReferrals: 0, pointName: null };
    expect(shareLinkView({ kind: "ok", ambassador, links: [] }, {})).toEqual({ kind: "hidden" });
    expect(shareLinkView({ kind: "ok", ambassador, links: [link] }, {})).toEqual({ kind: "enrolled", links: [link] });
  });

  it("shares by email always, and on social networks when the campaign allows it", () => {
    const text = { message: "Here's my link:", subject: "A link for you" };
    const email = shareTargets(link, text);
    expect(email.map((target) => target.label)).toEqual(["shareEmail"]);
    expect(email[0]!.href).toBe(
      `mailto:?subject=A%20link%20for%20you&body=${encodeURIComponent(`Here's my link:\n\n${link.url}`)}`,
    );
    const social = shareTargets({ ...link, socialEnabled: true }, text);
    expect(social.map((target) => target.label)).toEqual(["shareEmail", "shareX", "shareFacebook", "shareWhatsApp"]);
    for (const target of social.slice(1)) {
      expect(target.href).toMatch(/^https:\/\//);
      expect(target.href).toContain(encodeURIComponent(link.url));
    }
  });

  it("links a guest only to the shop's own web address", () => {
    expect(accountUrl("https://shop.example/collections/all")).toBe("https://shop.example/account");
    expect(accountUrl("javascript:alert(1)")).toBeNull();
    expect(accountUrl("not a url")).toBeNull();
    expect(accountUrl(undefined)).toBeNull();
  });
});
