// The admin side of the service's webhooks: the events page (loader and
// action with signed embedded requests), the receiving-URL card, and what
// the receiver writes to the log.
import { Writable } from "node:stream";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
// Remix's hooks are React Router's (a dependency of @remix-run/react): its server-side router stands in for the page's.
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServiceWebhookView } from "../../../app/entry/admin/service-webhook";
import { ServiceWebhookCard } from "../../../app/entry/admin/components/ServiceWebhookCard";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES, getEnv } from "../../../app/wiring/env.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { action, loader } from "../../../app/routes/app.events";
import { loader as settingsLoader } from "../../../app/routes/app.settings";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { receiveServiceWebhook } from "../../../app/domains/service-events/receive.server";
import { signServiceBody } from "../../../app/domains/service-events/signature.server";
import { resetDatabase } from "../../support/database";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { installShop } from "../../support/sessions";
import { routeArgs, TEST_SHOP } from "../../support/shopify-requests";
import { load } from "../../entry/admin/admin-requests";

const OTHER_SHOP = "other-shop.myshopify.com";
const STORE_CREDIT = ["read_store_credit_accounts", "write_store_credit_account_transactions"];

// The page asks Shopify which scopes are granted: its Admin API is a stand-in served on loopback. The process's
// environment is read once, before the stand-in's port is known, so its origin is set on the parsed environment.
const shopify = new ShopifyAdminStandIn();
let served: Awaited<ReturnType<ShopifyAdminStandIn["serve"]>>;
beforeAll(async () => {
  served = await shopify.serve();
  getEnv().SHOPIFY_ADMIN_API_ORIGIN = served.origin;
});
afterAll(async () => {
  getEnv().SHOPIFY_ADMIN_API_ORIGIN = undefined;
  await served?.close();
});

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

async function adminRequest(path: string, form?: Record<string, string>, shop = TEST_SHOP) {
  const init: RequestInit = form
    ? { method: "POST", body: new URLSearchParams(form), headers: { "Content-Type": "application/x-www-form-urlencoded" } }
    : {};
  return setUpValidRequest(
    { type: RequestType.Admin, store: shop.replace(/\.myshopify\.com$/, ""), apiKey: process.env.SHOPIFY_API_KEY!, apiSecretKey: process.env.SHOPIFY_API_SECRET! },
    new Request(new URL(path, process.env.SHOPIFY_APP_URL), init),
  );
}

describe("the service events page", () => {
  it("gives a shop made before endpoints existed its receiving URL, and its secret on that first view only", async () => {
    await prisma.shop.create({ data: { shop: TEST_SHOP, companyName: "Demo Outfitters" } }); // no endpoint yet

    const page = await loader(routeArgs(await adminRequest("/app/events")));

    const row = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    const { secret } = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
    expect(row.inboundWebhookId).toBeTruthy();
    expect(page.endpoint).toMatchObject({
      url: `https://referral-bridge.test/referral-webhooks/${row.inboundWebhookId}`,
      newSecret: secret,
      secretMadeAt: row.inboundWebhookSecretCreatedAt!.toISOString(),
      previousValidUntil: null,
      overlapHours: 24,
    });
    expect(page.options).toEqual({ storeCreditPayouts: false, tagContacts: false, shareLinkMetafield: false });
    expect(page.events).toMatchObject({ events: [], total: 0, page: 1 });

    // The next view, on either page, says a secret is set and no more.
    const again = await loader(routeArgs(await adminRequest("/app/events")));
    expect(again.endpoint).toMatchObject({ url: page.endpoint.url, newSecret: null, secretMadeAt: page.endpoint.secretMadeAt });
    expect(JSON.stringify(again)).not.toContain(secret);
    const settings = await load(settingsLoader, "/app/settings");
    expect(settings.serviceWebhook).toEqual(again.endpoint);
    expect(JSON.stringify(settings)).not.toContain(secret);
  });

  it("saves the options, validating the form", async () => {
    shopify.grantedScopes = [...shopify.grantedScopes, ...STORE_CREDIT];
    const saved = await action(routeArgs(await adminRequest("/app/events", { intent: "options", storeCreditPayouts: "true", tagContacts: "false" })));
    expect(saved).toEqual({ ok: true, message: "Saved." });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ storeCreditPayouts: true, tagContacts: false });

    const refused = await action(routeArgs(await adminRequest("/app/events", { intent: "options", storeCreditPayouts: "yes please" })));
    expect(refused.ok).toBe(false);
  });

  it("keeps store credit payouts and tagging off until the merchant grants their optional scopes", async () => {
    // GIVEN a shop that granted only the scopes asked at install
    shopify.grantedScopes = DEFAULT_SCOPES.split(",");
    const turnOn = (form: Record<string, string>) => adminRequest("/app/events", { intent: "options", storeCreditPayouts: "false", tagContacts: "false", ...form });

    // WHEN the merchant turns store credit payouts on
    const refused = await action(routeArgs(await turnOn({ storeCreditPayouts: "true" })));
    // THEN nothing is saved, and the page says what is missing
    expect(refused).toEqual({
      ok: false,
      message: expect.stringContaining("Store credit payouts stays off until you allow the app to use read_store_credit_accounts and write_store_credit_account_transactions"),
    });
    expect(await action(routeArgs(await turnOn({ tagContacts: "true" })))).toMatchObject({ ok: false, message: expect.stringContaining("write_customers") });
    expect(await prisma.shop.findUnique({ where: { shop: TEST_SHOP } })).toBeNull();

    // WHEN the merchant has granted them (before app/scopes_update arrives)
    shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), ...STORE_CREDIT, "write_customers"];
    const saved = await action(routeArgs(await turnOn({ storeCreditPayouts: "true", tagContacts: "true" })));
    // THEN both are on, and the stored session knows the grant
    expect(saved).toEqual({ ok: true, message: "Saved." });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ storeCreditPayouts: true, tagContacts: true });
    expect((await prisma.session.findFirstOrThrow({ where: { shop: TEST_SHOP } })).scope?.split(",")).toEqual(shopify.grantedScopes);
    expect(shopify.refused).toEqual([]);

    // AND saving again with them on asks Shopify nothing more
    const calls = shopify.callsOf("ReferralBridgeAccessScopes").length;
    expect(await action(routeArgs(await turnOn({ storeCreditPayouts: "true", tagContacts: "true" })))).toEqual({ ok: true, message: "Saved." });
    expect(shopify.callsOf("ReferralBridgeAccessScopes")).toHaveLength(calls);
  });

  it("keeps the share link on the customer off until write_customers is granted; a form without the field keeps the stored choice", async () => {
    shopify.grantedScopes = DEFAULT_SCOPES.split(",");
    const options = (form: Record<string, string>) => adminRequest("/app/events", { intent: "options", storeCreditPayouts: "false", tagContacts: "false", ...form });

    expect(await action(routeArgs(await options({ shareLinkMetafield: "true" })))).toEqual({
      ok: false,
      message: expect.stringContaining("The share link on the customer stays off until you allow the app to use write_customers"),
    });
    expect(await prisma.shop.findUnique({ where: { shop: TEST_SHOP } })).toBeNull();

    shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), "write_customers"];
    expect(await action(routeArgs(await options({ shareLinkMetafield: "true" })))).toEqual({ ok: true, message: "Saved." });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ shareLinkMetafield: true });
    // An older page's form, without the field, leaves it on.
    expect(await action(routeArgs(await options({})))).toEqual({ ok: true, message: "Saved." });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ shareLinkMetafield: true });
    expect(await action(routeArgs(await options({ shareLinkMetafield: "false" })))).toEqual({ ok: true, message: "Saved." });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ shareLinkMetafield: false });
  });

  it("retries a failed event of its own shop only", async () => {
    await installShop(OTHER_SHOP);
    const event = await prisma.serviceEvent.create({
      data: { shop: TEST_SHOP, eventId: "5", eventType: "payout-created", payload: "{}", signedForm: "raw", state: "failed", detail: "boom" },
    });
    await prisma.job.create({
      data: { shop: TEST_SHOP, kind: "service-event.process", key: `${TEST_SHOP}:service-event.process:${event.id}`, payload: "{}", status: "failed", attempts: 14 },
    });

    const fromOtherShop = await action(routeArgs(await adminRequest("/app/events", { intent: "retry", id: event.id }, OTHER_SHOP)));
    expect(fromOtherShop.ok).toBe(false);
    expect((await prisma.job.findFirstOrThrow()).status).toBe("failed");

    const retried = await action(routeArgs(await adminRequest("/app/events", { intent: "retry", id: event.id })));
    expect(retried.ok).toBe(true);
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ status: "queued", attempts: 0 });
    expect(await prisma.serviceEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({ state: "received" });
  });
});

describe("ServiceWebhookCard", () => {
  const view: ServiceWebhookView = {
    url: "https://referral-bridge.test/referral-webhooks/abc",
    secretMadeAt: "2026-11-20T09:30:00.000Z",
    previousValidUntil: null,
    overlapHours: 24,
    newSecret: null,
    secretUnreadable: false,
  };
  // The card submits with Remix, so it renders inside a router, as on its pages.
  const render = async (props: Parameters<typeof ServiceWebhookCard>[0]) => {
    const handler = createStaticHandler([{ path: "/", element: createElement(AppProvider, { i18n: en }, createElement(ServiceWebhookCard, props)) }]);
    const context = await handler.query(new Request("https://referral-bridge.test/"));
    if (context instanceof Response) throw new Error("The stand-in router answered a Response");
    return renderToString(createElement(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, context), context }));
  };

  it("shows the URL, that a secret is set and when it was made, and a Rotate secret action", async () => {
    const html = await render({ webhook: view });
    expect(html).toContain("https://referral-bridge.test/referral-webhooks/abc");
    expect(html).toContain("made Nov 20, 2026, 9:30 AM UTC");
    expect(html).toContain("Rotate secret");
    expect(html).not.toContain("Copy the secret now");
  });

  it("shows a secret just made once, with a copy button, and says how long the previous one still works", async () => {
    const html = await render({ webhook: { ...view, previousValidUntil: "2026-11-21T09:30:00.000Z" }, rotation: { ok: true, webhook: { ...view, newSecret: "s3cr3t-value" } } });
    expect(html).toContain("Copy the secret now: it is shown only this once");
    expect(html).toContain("s3cr3t-value");
    expect(html).toContain("The previous secret keeps working until Nov 21, 2026, 9:30 AM UTC");
  });

  it("says when the app can't read the secret any more (its key changed)", async () => {
    const html = await render({ webhook: { ...view, secretUnreadable: true } });
    expect(html).toContain("read this secret any more");
    expect(html).toContain("Rotate the secret and paste the new one into the referral service");
    expect(await render({ webhook: view })).not.toContain("read this secret any more");
  });

  it("says why a rotation did not happen", async () => {
    const html = await render({ webhook: view, rotation: { ok: false, message: "The secret was changed at the same moment, elsewhere." } });
    expect(html).toContain("The secret was changed at the same moment, elsewhere.");
  });
});

describe("the receiver's log lines", () => {
  it("never carry the secret or the body", async () => {
    await prisma.shop.create({ data: { shop: TEST_SHOP } });
    const { endpointId, secret } = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
    const lines: string[] = [];
    const logger = createLogger({
      level: "debug",
      destination: new Writable({
        write(chunk, _encoding, callback) {
          lines.push(String(chunk));
          callback();
        },
      }),
    });
    const body = JSON.stringify({ event_id: 1, event_type: "contact-created", event_data: { contact: { email: "private@example.com" } } });

    const ok = await receiveServiceWebhook(prisma, logger, { endpointId, rawBody: body, signature: signServiceBody(secret, body) }, { credentialsKey: getEnv().CREDENTIALS_KEY });
    const forged = await receiveServiceWebhook(prisma, logger, { endpointId, rawBody: body, signature: signServiceBody("x", body) }, { credentialsKey: getEnv().CREDENTIALS_KEY });

    expect([ok.status, forged.status]).toEqual([200, 401]);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const log = lines.join("\n");
    expect(log).not.toContain(secret);
    expect(log).not.toContain("private@example.com");
    expect(log).not.toContain(endpointId);
  });
});
