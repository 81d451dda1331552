import "../entry/admin/browser-env";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/wiring/db.server";
import { OFFER_SYNC_JOB } from "../../app/domains/offers/job-kinds";
import { RECONCILE_JOB } from "../../app/domains/order-sync/job-kinds";
import { STOPPED_BY_UNINSTALL } from "../../app/wiring/uninstall.server";
import { sandboxAppEnv, startAppServer, type AppServer } from "../entry/admin/app-server";
import { postPixelSignal, proxyRequest, STORE } from "../entry/storefront/support/requests";
import { sampleCheckoutToken } from "../support/orders";
import { connectShop, useTestSandbox } from "../support/pipeline";
import { ShopifyAdminStandIn } from "../support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../support/shopify-requests";

// Install, uninstall and install again through the app's own authentication
// path on the served build: the admin opens the app with a session token,
// the app exchanges it for an offline token at the shop's token endpoint
// (the stand-in, which only lets its own tokens into the Admin API), and its
// afterAuth hook runs. After the reinstall the shop has its storefront links,
// its pixel attribution and its scheduled jobs back.

const sandbox = useTestSandbox();
let shopify: ShopifyAdminStandIn;
let standIn: { origin: string; close(): Promise<void> };
let app: AppServer | undefined;

beforeAll(async () => {
  shopify = new ShopifyAdminStandIn();
  shopify.tokens.strict = true;
  standIn = await shopify.serve();
});
afterAll(() => standIn?.close());
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** The Shopify admin opens the embedded app: a fetch with a fresh session token, as App Bridge sends it. */
async function openApp(server: AppServer): Promise<Response> {
  const { token } = await getJwt(STORE, process.env.SHOPIFY_API_KEY!, process.env.SHOPIFY_API_SECRET!);
  // A browser's user agent: the library answers bots 410.
  return fetch(`${server.origin}/app?_data=routes%2Fapp`, { headers: { Authorization: `Bearer ${token}`, "User-Agent": BROWSER } });
}

/** The links block's request through the app proxy, signed by Shopify, for a signed-in customer. */
async function links(server: AppServer, customerGid: string): Promise<{ status: string }> {
  const signed = await proxyRequest({ customerId: customerGid.split("/").pop()! });
  const response = await fetch(signed.url.replace(process.env.SHOPIFY_APP_URL!, server.origin), { headers: signed.headers });
  expect(response.status).toBe(200);
  return (await response.json()) as { status: string };
}

let checkout = 0n;
/** The web pixel's post at checkout_completed; whether the app kept it. */
async function pixelKept(server: AppServer): Promise<boolean> {
  checkout += 1n;
  const token = sampleCheckoutToken(7_100_000_000_000n + checkout);
  await postPixelSignal(server.origin, { shop: TEST_SHOP, checkoutToken: token, orderId: null, code: "ALICE10", campaign: "" }).then((r) => r.text());
  return (await prisma.pixelSignal.count({ where: { shop: TEST_SHOP, checkoutToken: token } })) === 1;
}

const scheduled = () =>
  prisma.job.findMany({ where: { shop: TEST_SHOP, kind: { in: [RECONCILE_JOB.name, OFFER_SYNC_JOB.name] } }, select: { kind: true, key: true, status: true, lastError: true, runAt: true } });

describe("reinstall through the app's own authentication", () => {
  it("an uninstalled and reinstalled shop gets its links, its pixel attribution and its scheduled jobs back", async () => {
    // GIVEN a shop connected to the service, with a friend's offer, not installed yet
    await connectShop(sandbox, { installed: false });
    await prisma.friendOffer.create({ data: { shop: TEST_SHOP, campaignUid: "1001" } });
    const alice = shopify.customers.add("alice@example.com");
    app = await startAppServer({ ...sandboxAppEnv(), SHOPIFY_ADMIN_API_ORIGIN: standIn.origin });

    // WHEN the merchant installs: the admin opens the app, which exchanges the session token for an offline token
    expect((await openApp(app)).status).toBe(200);
    expect(shopify.tokens.calls).toEqual([{ grant: "token_exchange", outcome: "issued" }]);
    // THEN the shop works and its schedules run
    expect((await links(app, alice.id)).status).toBe("ok");
    expect(await pixelKept(app)).toBe(true);
    const installed = await scheduled();
    expect(installed.filter((job) => job.status === "queued").map((job) => job.kind).sort()).toEqual([OFFER_SYNC_JOB.name, RECONCILE_JOB.name]);

    // WHEN the merchant uninstalls, over an hour later (the stored token has expired): Shopify revokes the tokens, then tells the app
    await prisma.session.updateMany({ where: { shop: TEST_SHOP }, data: { expires: new Date(Date.now() - 60_000) } });
    shopify.tokens.revokeAll();
    const uninstalled = await fetch(signedWebhook({ topic: "app/uninstalled", url: `${app.origin}/webhooks/app/uninstalled`, body: { id: 548380009, name: "Referral Demo", domain: TEST_SHOP, myshopify_domain: TEST_SHOP } }));
    // (the library tried to refresh the revoked token first; the delivery is handled all the same)
    expect(uninstalled.status).toBe(200);
    expect(shopify.tokens.calls.at(-1)).toEqual({ grant: "refresh_token", outcome: "refused", error: "invalid_grant" });
    // THEN nothing of the shop runs
    expect((await links(app, alice.id)).status).toBe("unavailable");
    expect(await pixelKept(app)).toBe(false);
    const stopped = await scheduled();
    expect(stopped.map((job) => job.key)).toEqual(expect.arrayContaining(installed.map((job) => job.key)));
    expect(stopped.length).toBeGreaterThan(0);
    expect(stopped.every((job) => job.status === "done" && job.lastError === STOPPED_BY_UNINSTALL)).toBe(true);

    // WHEN the merchant installs it again, within the same reconciliation interval
    expect((await openApp(app)).status).toBe(200);
    expect(shopify.tokens.calls.map((call) => `${call.grant}:${call.outcome}`)).toEqual(["token_exchange:issued", "refresh_token:refused", "token_exchange:issued"]);

    // THEN the uninstall mark is gone, and the links, the pixel and the schedules are back
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).uninstalledAt).toBeNull();
    expect((await links(app, alice.id)).status).toBe("ok");
    expect(await pixelKept(app)).toBe(true);
    const after = await scheduled();
    const waiting = after.filter((job) => job.status === "queued");
    // The stopped reconciliation pass waits again under its own key (its slot), so the schedule goes on from it.
    expect(waiting.filter((job) => job.kind === RECONCILE_JOB.name).map((job) => job.key)).toEqual(installed.filter((job) => job.kind === RECONCILE_JOB.name).map((job) => job.key));
    // The scheduled offer sync waits again, and the offer is brought in step now (ambassadors may have changed meanwhile).
    const offerSyncs = waiting.filter((job) => job.kind === OFFER_SYNC_JOB.name).map((job) => job.key);
    expect(offerSyncs).toEqual(expect.arrayContaining(installed.filter((job) => job.kind === OFFER_SYNC_JOB.name).map((job) => job.key)));
    expect(offerSyncs.some((key) => key.includes(":now:"))).toBe(true);
    expect(after.filter((job) => job.status === "done")).toEqual([]);

    // AND opening the app again (a valid session) changes nothing
    expect((await openApp(app)).status).toBe(200);
    expect(shopify.tokens.calls).toHaveLength(3);
    expect(await prisma.job.count({ where: { shop: TEST_SHOP, kind: OFFER_SYNC_JOB.name } })).toBe(offerSyncs.length);
    expect(shopify.refused).toEqual([]);
    expect(app.exitCode()).toBeNull();
  }, 60_000);
});
