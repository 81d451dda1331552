// Rotating the service webhook secret (issue 28): only the merchant, from the
// admin; the replaced secret verifies for 24 hours, then only the new one;
// the secret reaches the page only in the answer that made it.
import { Writable } from "node:stream";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ROTATE_SECRET_INTENT } from "../../../app/entry/admin/service-webhook";
import { openToken } from "../../../app/platform/crypto/sealing.server";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { action as eventsAction } from "../../../app/routes/app.events";
import { action as settingsAction, loader as settingsLoader } from "../../../app/routes/app.settings";
import { action as receive } from "../../../app/routes/referral-webhooks.$endpointId";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { receiveServiceWebhook } from "../../../app/domains/service-events/receive.server";
import { signServiceBody } from "../../../app/domains/service-events/signature.server";
import { callRoute, load, submit } from "../../entry/admin/admin-requests";
import { resetDatabase } from "../../support/database";
import { installShop } from "../../support/sessions";
import { routeArgs, TEST_SHOP } from "../../support/shopify-requests";

const OTHER_SHOP = "other-shop.myshopify.com";
const HOUR = 3600_000;
const key = () => ({ credentialsKey: getEnv().CREDENTIALS_KEY });

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});
afterEach(() => {
  vi.useRealTimers();
});

const shopRow = (shop = TEST_SHOP) => prisma.shop.findUniqueOrThrow({ where: { shop } });

/** A signed embedded admin request to the Service events page's action (it answers plain objects). */
async function eventsForm(form: Record<string, string>, shop = TEST_SHOP) {
  const request = await setUpValidRequest(
    { type: RequestType.Admin, store: shop.replace(/\.myshopify\.com$/, ""), apiKey: process.env.SHOPIFY_API_KEY!, apiSecretKey: process.env.SHOPIFY_API_SECRET! },
    new Request(new URL("/app/events", process.env.SHOPIFY_APP_URL), { method: "POST", body: new URLSearchParams(form) }),
  );
  return eventsAction(routeArgs(request));
}

/** Rotates from Settings and returns the new secret, as the page receives it. */
async function rotate(form: Record<string, string> = {}): Promise<string> {
  const { status, body } = await submit(settingsAction, "/app/settings", { intent: ROTATE_SECRET_INTENT, ...form });
  expect(status).toBe(200);
  if (!body.ok || !("webhook" in body) || !body.webhook.newSecret) throw new Error(`Expected a new secret: ${JSON.stringify(body)}`);
  return body.webhook.newSecret;
}

let nextEventId = 500;
/** A service webhook through its public route, created now (by the test's clock), signed with `secret`. */
async function deliver(secret: string): Promise<number> {
  const { endpointId } = await ensureInboundEndpoint(prisma, TEST_SHOP, key());
  const body = JSON.stringify({
    event_type: "contact-created",
    event_id: nextEventId++,
    created_at: new Date().toISOString().slice(0, 19),
    event_data: { contact: { id: 3, email: "zoe@example.com" } },
  });
  const request = new Request(`https://referral-bridge.test/referral-webhooks/${endpointId}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "X-SERVICE-HMAC-SHA256": signServiceBody(secret, body) },
  });
  return (await receive(routeArgs(request, { endpointId }))).status;
}

describe("rotating the service webhook secret", () => {
  it("accepts the old secret during the 24-hour overlap and refuses it after; the new one works at once", async () => {
    // GIVEN a shop whose service signs with its secret
    const old = (await ensureInboundEndpoint(prisma, TEST_SHOP, key())).secret;
    expect(await deliver(old)).toBe(200);

    // WHEN the merchant rotates it
    const fresh = await rotate();
    const until = (await shopRow()).inboundWebhookPreviousSecretExpiresAt!;

    // THEN both verify now
    expect(fresh).not.toBe(old);
    expect(await deliver(fresh)).toBe(200);
    expect(await deliver(old)).toBe(200);
    expect(until.getTime() - Date.now()).toBeGreaterThan(23.9 * HOUR);
    expect(until.getTime() - Date.now()).toBeLessThanOrEqual(24 * HOUR);

    // AND until the overlap ends (the clock moved, not waited for) the old one still does
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(until.getTime() - 60_000);
    expect(await deliver(old)).toBe(200);

    // AND after it, only the new one
    vi.setSystemTime(until.getTime() + 1);
    expect(await deliver(old)).toBe(401);
    expect(await deliver(fresh)).toBe(200);
    expect(await prisma.serviceEvent.count()).toBe(5);
  });

  it("says in the log which secret verified, never the secret", async () => {
    const { endpointId, secret: old } = await ensureInboundEndpoint(prisma, TEST_SHOP, key());
    const fresh = await rotate();
    const until = (await shopRow()).inboundWebhookPreviousSecretExpiresAt!;
    const lines: { msg: string; verifiedWith?: string }[] = [];
    const logger = createLogger({
      level: "info",
      destination: new Writable({
        write(chunk, _encoding, callback) {
          lines.push(JSON.parse(String(chunk)));
          callback();
        },
      }),
    });
    const body = (id: number) => JSON.stringify({ event_type: "contact-created", event_id: id, event_data: {} });
    const at = (ms: number) => ({ ...key(), now: () => new Date(ms) });

    const byOld = await receiveServiceWebhook(prisma, logger, { endpointId, rawBody: body(1), signature: signServiceBody(old, body(1)) }, at(until.getTime() - 1));
    const byNew = await receiveServiceWebhook(prisma, logger, { endpointId, rawBody: body(2), signature: signServiceBody(fresh, body(2)) }, at(until.getTime() - 1));
    const late = await receiveServiceWebhook(prisma, logger, { endpointId, rawBody: body(3), signature: signServiceBody(old, body(3)) }, at(until.getTime()));

    expect([byOld.status, byNew.status, late.status]).toEqual([200, 200, 401]);
    expect(lines.filter((l) => l.msg === "service webhook stored").map((l) => l.verifiedWith)).toEqual(["previous", "current"]);
    const log = JSON.stringify(lines);
    expect(log).not.toContain(old);
    expect(log).not.toContain(fresh);
  });

  it("shows the new secret in the action's answer only: the page's loader never returns it", async () => {
    const first = await load(settingsLoader, "/app/settings");
    const old = first.serviceWebhook.newSecret!;
    expect(old).toBeTruthy(); // the first view made it

    const fresh = await rotate();

    const page = await load(settingsLoader, "/app/settings");
    const row = await shopRow();
    expect(page.serviceWebhook).toMatchObject({
      newSecret: null,
      secretMadeAt: row.inboundWebhookSecretCreatedAt!.toISOString(),
      previousValidUntil: row.inboundWebhookPreviousSecretExpiresAt!.toISOString(),
      overlapHours: 24,
    });
    expect(JSON.stringify(page)).not.toContain(fresh);
    expect(JSON.stringify(page)).not.toContain(old);
  });

  it("keeps the replaced secret sealed in a column of its own", async () => {
    const old = (await ensureInboundEndpoint(prisma, TEST_SHOP, key())).secret;
    await rotate();
    const sealed = (await shopRow()).inboundWebhookPreviousSecretSealed!;
    expect(sealed).toMatch(/^v2\./);
    expect(sealed).not.toContain(old);
    expect(openToken(sealed, key().credentialsKey, { shop: TEST_SHOP, column: "Shop.inboundWebhookPreviousSecretSealed" })).toBe(old);
    expect(() => openToken(sealed, key().credentialsKey, { shop: TEST_SHOP, column: "Shop.inboundWebhookSecretSealed" })).toThrow();
  });

  it("from Service events too; a second rotation stops the secret replaced first, and 'stop at once' leaves no overlap", async () => {
    const first = (await ensureInboundEndpoint(prisma, TEST_SHOP, key())).secret;
    const rotated = await eventsForm({ intent: ROTATE_SECRET_INTENT });
    if (!("webhook" in rotated)) throw new Error(JSON.stringify(rotated));
    const second = rotated.webhook.newSecret!;
    expect(rotated.webhook.previousValidUntil).not.toBeNull();

    const third = await rotate();
    expect([await deliver(first), await deliver(second), await deliver(third)]).toEqual([401, 200, 200]);

    const fourth = await rotate({ endCurrentNow: "true" });
    expect([await deliver(third), await deliver(fourth)]).toEqual([401, 200]);
    expect(await shopRow()).toMatchObject({ inboundWebhookPreviousSecretSealed: null, inboundWebhookPreviousSecretExpiresAt: null });
    expect((await load(settingsLoader, "/app/settings")).serviceWebhook.previousValidUntil).toBeNull();
  });

  it("refuses a form it does not understand, and changes nothing", async () => {
    await ensureInboundEndpoint(prisma, TEST_SHOP, key());
    const before = await shopRow();
    const { status, body } = await submit(settingsAction, "/app/settings", { intent: ROTATE_SECRET_INTENT, endCurrentNow: "maybe" });
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, message: expect.stringMatching(/could not be understood/) });
    expect((await shopRow()).inboundWebhookSecretSealed).toBe(before.inboundWebhookSecretSealed);
  });

  it("needs an authenticated admin request, and rotates only that request's shop", async () => {
    await installShop(OTHER_SHOP);
    const mine = (await ensureInboundEndpoint(prisma, TEST_SHOP, key())).secret;
    const others = (await ensureInboundEndpoint(prisma, OTHER_SHOP, key())).secret;
    const before = (await shopRow()).inboundWebhookSecretSealed;
    const form = () => new URLSearchParams({ intent: ROTATE_SECRET_INTENT });

    // No session token, and one signed with another app's secret: both refused before the action does anything
    const unsigned = new Request(new URL("/app/settings", process.env.SHOPIFY_APP_URL), { method: "POST", body: form() });
    const forged = await setUpValidRequest(
      { type: RequestType.Admin, store: TEST_SHOP.replace(/\.myshopify\.com$/, ""), apiKey: process.env.SHOPIFY_API_KEY!, apiSecretKey: "not-the-app-secret" },
      new Request(new URL("/app/events", process.env.SHOPIFY_APP_URL), { method: "POST", body: form() }),
    );
    for (const [route, request] of [
      [settingsAction, unsigned],
      [eventsAction, forged],
      [eventsAction, new Request(new URL("/app/events", process.env.SHOPIFY_APP_URL), { method: "POST", body: form() })],
    ] as const) {
      const answer = await callRoute(route, request);
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBeGreaterThanOrEqual(300);
      expect(JSON.stringify(await (answer as Response).text())).not.toMatch(/newSecret/);
    }
    expect((await shopRow()).inboundWebhookSecretSealed).toBe(before);

    // The other shop's admin rotates the other shop's secret
    const rotated = await eventsForm({ intent: ROTATE_SECRET_INTENT }, OTHER_SHOP);
    expect(rotated).toMatchObject({ ok: true });
    expect((await shopRow()).inboundWebhookSecretSealed).toBe(before);
    expect((await ensureInboundEndpoint(prisma, TEST_SHOP, key())).secret).toBe(mine);
    expect((await ensureInboundEndpoint(prisma, OTHER_SHOP, key())).secret).not.toBe(others);
  });
});
