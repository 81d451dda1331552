// app/uninstalled: the shop's waiting jobs stop and its sessions go; its
// settings stay until shop/redact; privacy work owed to customers goes on.
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { STOPPED_BY_UNINSTALL } from "../../../app/wiring/uninstall.server";
import { action } from "../../../app/routes/webhooks.app.uninstalled";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { retryServiceEvent } from "../../../app/domains/service-events/events.server";
import { resetDatabase } from "../../support/database";
import { installShop } from "../../support/sessions";
import { routeArgs, signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

const OTHER_SHOP = "other-shop.myshopify.com";

beforeEach(resetDatabase);

async function job(shop: string, kind: string, subject: string, status = "queued") {
  return prisma.job.create({ data: { shop, kind, key: `${shop}:${kind}:${subject}`, payload: "{}", status } });
}

describe("app/uninstalled", () => {
  it("stops the shop's waiting jobs and deletes its sessions, and keeps its settings and records", async () => {
    // GIVEN an installed, configured shop with work waiting, and another shop
    await installShop();
    await installShop(OTHER_SHOP);
    await prisma.shop.create({
      data: { shop: TEST_SHOP, companyName: "Demo Outfitters", campaignUids: "1001", storeCreditPayouts: true, redactAtService: false },
    });
    const endpoint = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "1", status: "queued" } });
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "2", status: "recorded" } });
    const event = await prisma.serviceEvent.create({
      data: { shop: TEST_SHOP, eventId: "77", eventType: "payout-created", payload: "{}", signedForm: "raw" },
    });
    const queued = await job(TEST_SHOP, "order.record", "1");
    const paused = await job(TEST_SHOP, "order.refund", "2:9", "paused");
    const running = await job(TEST_SHOP, "order.cancel", "2", "running");
    const eventJob = await job(TEST_SHOP, "service-event.process", event.id);
    const exportJob = await job(TEST_SHOP, "privacy.export", "dr1");
    const erasureJob = await job(TEST_SHOP, "privacy.redact", "rl1", "paused");
    const otherJob = await job(OTHER_SHOP, "order.record", "1");

    // WHEN Shopify says the app was uninstalled
    const response = await action(routeArgs(signedWebhook({ topic: "app/uninstalled", body: { id: 1, domain: TEST_SHOP } })));

    // THEN waiting jobs are stopped with a reason, privacy jobs and the running one are left, other shops untouched
    expect(response.status).toBe(200);
    const status = async (id: string) => prisma.job.findUniqueOrThrow({ where: { id } });
    for (const stopped of [queued, paused, eventJob]) {
      expect(await status(stopped.id)).toMatchObject({ status: "done", lastError: STOPPED_BY_UNINSTALL });
    }
    expect(await status(running.id)).toMatchObject({ status: "running" });
    expect(await status(exportJob.id)).toMatchObject({ status: "queued" });
    expect(await status(erasureJob.id)).toMatchObject({ status: "paused" });
    expect(await status(otherJob.id)).toMatchObject({ status: "queued" });
    // sessions gone, only this shop's
    expect(await prisma.session.count({ where: { shop: TEST_SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: OTHER_SHOP } })).toBe(1);
    // settings, credentials and endpoint kept for a reinstall
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(shop).toMatchObject({
      companyName: "Demo Outfitters",
      campaignUids: "1001",
      storeCreditPayouts: true,
      redactAtService: false,
      inboundWebhookId: endpoint.endpointId,
      uninstalledAt: expect.any(Date),
    });
    // what was waiting says why it stopped
    expect(await prisma.orderRecord.findMany({ where: { shop: TEST_SHOP }, orderBy: { orderId: "asc" }, select: { status: true } })).toEqual([
      { status: "skipped" },
      { status: "recorded" },
    ]);
    const stoppedEvent = await prisma.serviceEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect(stoppedEvent).toMatchObject({ state: "failed", detail: expect.stringContaining("uninstalled") });

    // AND after a reinstall the merchant can have the event acted on again
    expect(await retryServiceEvent(prisma, TEST_SHOP, event.id)).toBe(true);
    expect(await status(eventJob.id)).toMatchObject({ status: "queued", attempts: 0, lastError: null });
  });

  it("answers 401 to a forged request and stops nothing", async () => {
    await installShop();
    const queued = await job(TEST_SHOP, "order.record", "1");
    const forged = signedWebhook({ topic: "app/uninstalled", body: { id: 1 }, secret: "not-the-app-secret" });
    const response = await action(routeArgs(forged)).catch((thrown: unknown) => thrown as Response);
    expect(response.status).toBe(401);
    expect(await prisma.job.findUniqueOrThrow({ where: { id: queued.id } })).toMatchObject({ status: "queued" });
    expect(await prisma.session.count()).toBe(1);
  });
});
