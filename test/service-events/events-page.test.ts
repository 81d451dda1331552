// The admin side of the service's webhooks: the events page (loader and
// action with signed embedded requests), the receiving-URL card, and what
// the receiver writes to the log.
import { Writable } from "node:stream";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it } from "vitest";
import { ServiceWebhookCard } from "../../app/components/ServiceWebhookCard";
import prisma from "../../app/db.server";
import { getEnv } from "../../app/env.server";
import { createLogger } from "../../app/logger.server";
import { action, loader } from "../../app/routes/app.events";
import { ensureInboundEndpoint } from "../../app/service-events/endpoint.server";
import { receiveServiceWebhook } from "../../app/service-events/receive.server";
import { signServiceBody } from "../../app/service-events/signature.server";
import { resetDatabase } from "../support/database";
import { installShop } from "../support/sessions";
import { routeArgs, TEST_SHOP } from "../support/shopify-requests";

const OTHER_SHOP = "other-shop.myshopify.com";

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
  it("gives a shop made before endpoints existed its receiving URL and secret on first view", async () => {
    await prisma.shop.create({ data: { shop: TEST_SHOP, companyName: "Demo Outfitters" } }); // no endpoint yet

    const page = await loader(routeArgs(await adminRequest("/app/events")));

    const row = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(row.inboundWebhookId).toBeTruthy();
    expect(page.endpoint.url).toBe(`https://referral-bridge.test/referral-webhooks/${row.inboundWebhookId}`);
    expect(page.endpoint.secret).toBe((await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY })).secret);
    expect(page.options).toEqual({ storeCreditPayouts: false, tagContacts: false });
    expect(page.events).toMatchObject({ events: [], total: 0, page: 1 });
  });

  it("saves the options, validating the form", async () => {
    const saved = await action(routeArgs(await adminRequest("/app/events", { intent: "options", storeCreditPayouts: "true", tagContacts: "false" })));
    expect(saved).toEqual({ ok: true, message: "Saved." });
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ storeCreditPayouts: true, tagContacts: false });

    const refused = await action(routeArgs(await adminRequest("/app/events", { intent: "options", storeCreditPayouts: "yes please" })));
    expect(refused.ok).toBe(false);
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
  it("shows the URL and keeps the secret hidden until asked", () => {
    const html = renderToString(
      createElement(AppProvider, { i18n: en }, createElement(ServiceWebhookCard, { url: "https://referral-bridge.test/referral-webhooks/abc", secret: "s3cr3t-value" })),
    );
    expect(html).toContain("https://referral-bridge.test/referral-webhooks/abc");
    expect(html).not.toContain("s3cr3t-value");
    expect(html).toContain("Show");
    expect(html).toContain("Copy");
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
