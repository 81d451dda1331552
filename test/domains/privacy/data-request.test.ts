// customers/data_request end to end: the signed webhook, the job that asks the
// sandbox service for its export, the report, the admin page and the download.
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { createExportLimiter, createReferralClient } from "../../../app/platform/referral-api";
import { storeOrderWebhook } from "../../../app/wiring/order-intake.server";
import { loader as downloadLoader } from "../../../app/routes/app.data-requests.$id.download";
import { loader as pageLoader } from "../../../app/routes/app.data-requests";
import { action as dataRequestAction } from "../../../app/routes/webhooks.customers.data_request";
import { shopifyOrder } from "../../support/orders";
import { clearSandboxFaults, connectShop, sandboxFaults, testPipeline, type TestPipeline, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { routeArgs, signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

const sandbox = useTestSandbox();
let pipeline: TestPipeline;

beforeEach(async () => {
  await clearSandboxFaults(sandbox);
  await installShop();
  pipeline = testPipeline();
});

let nextRequest = 9_100;
async function requestData(email: string, options: { orders?: number[]; customerId?: number } = {}) {
  const body = {
    shop_id: 954_889,
    shop_domain: TEST_SHOP,
    orders_requested: options.orders ?? [],
    customer: { id: options.customerId ?? 7_210_000_000_017, email, phone: null },
    data_request: { id: nextRequest++ },
  };
  const response = await dataRequestAction(routeArgs(signedWebhook({ topic: "customers/data_request", body })));
  expect(response.status).toBe(200);
  return prisma.dataRequest.findFirstOrThrow({ where: { requestId: String(body.data_request.id) } });
}

async function recordReferredOrder(email: string) {
  const order = shopifyOrder({ email, customerEmail: email, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
  await storeOrderWebhook({
    topic: "ORDERS_PAID",
    shop: TEST_SHOP,
    payload: order,
    webhookId: null,
    triggeredAt: null
  });
  await pipeline.drain();
  return String(order.id);
}

async function adminRequest(path: string, shop = TEST_SHOP) {
  return setUpValidRequest(
    { type: RequestType.Admin, store: shop.replace(/\.myshopify\.com$/, ""), apiKey: process.env.SHOPIFY_API_KEY!, apiSecretKey: process.env.SHOPIFY_API_SECRET! },
    new Request(new URL(path, process.env.SHOPIFY_APP_URL)),
  );
}

const report = async (id: string) => JSON.parse((await prisma.dataRequest.findUniqueOrThrow({ where: { id } })).report!);

describe("a customer's data request", () => {
  it("builds a report with the service's export and the app's own rows, and the merchant can view and download it", async () => {
    // GIVEN a connected shop that recorded jon's referred order, and an event naming him
    await connectShop(sandbox);
    const orderId = await recordReferredOrder("jon@example.com");
    await prisma.serviceEvent.create({
      data: {
        shop: TEST_SHOP,
        eventId: "1",
        eventType: "commission-created",
        payload: JSON.stringify({ event_id: 1, event_data: { referred_contact: { email: "jon@example.com" } } }),
        emails: ",alice@example.com,jon@example.com,",
        signedForm: "raw",
      },
    });

    // WHEN Shopify sends the data request and the worker runs
    const request = await requestData("Jon@Example.com");
    const page = await pageLoader(routeArgs(await adminRequest("/app/data-requests")));
    expect(page.requests.map((r) => r.status)).toEqual(["open"]); // the page's banner shows while it is open
    await pipeline.drain();

    // THEN the report holds the service's export and the local rows
    const ready = await prisma.dataRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(ready).toMatchObject({ status: "ready", completedAt: expect.any(Date), statusDetail: null });
    const body = await report(request.id);
    expect(body.referralService).toMatchObject({ asked: true, found: true });
    expect(body.referralService.data.profile).toMatchObject({ email: "jon@example.com", first_name: "Jon" });
    expect(Object.keys(body.referralService.data).sort()).toEqual(["emails", "fingerprints", "ip_addresses", "profile", "satisfaction_surveys", "social_data"]);
    expect(body.app.orderRecords).toEqual([expect.objectContaining({ orderId, email: "jon@example.com", shortCode: "ALICE10", status: "recorded" })]);
    expect(body.app.serviceEvents).toEqual([expect.objectContaining({ eventId: "1", eventType: "commission-created" })]);
    expect(body.customer).toEqual({ id: "7210000000017", email: "jon@example.com" });
    // Webhook received to report stored, as the page shows it (the worker here runs at once, as the in-process one is woken).
    const tookMs = ready.completedAt!.getTime() - ready.receivedAt.getTime();
    console.info(`customers/data_request: webhook to report ready in ${tookMs} ms`);
    expect(tookMs).toBeLessThan(5_000);

    // AND the admin lists it as ready, shows it, and downloads it as a JSON file
    const after = await pageLoader(routeArgs(await adminRequest(`/app/data-requests?id=${request.id}`)));
    expect(after.requests[0]).toMatchObject({ id: request.id, status: "ready", tookMs: expect.any(Number) });
    expect(JSON.parse(after.selected!.report!)).toEqual(body);
    const file = await downloadLoader(routeArgs(await adminRequest(`/app/data-requests/${request.id}/download`), { id: request.id }));
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toContain("application/json");
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment; filename="data-request-\d+-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(await file.json()).toEqual(body);
  });

  it("shows no other shop's request", async () => {
    await installShop("other-shop.myshopify.com");
    const request = await requestData("jon@example.com");
    const download = await downloadLoader(routeArgs(await adminRequest(`/app/data-requests/${request.id}/download`, "other-shop.myshopify.com"), { id: request.id }));
    expect(download.status).toBe(404);
    const page = await pageLoader(routeArgs(await adminRequest(`/app/data-requests?id=${request.id}`, "other-shop.myshopify.com")));
    expect(page.requests).toEqual([]);
    expect(page.selected).toBeNull();
  });

  it("says so when the service holds nothing for the person", async () => {
    await connectShop(sandbox);
    const request = await requestData("stranger@example.com");
    await pipeline.drain();
    expect((await report(request.id)).referralService).toMatchObject({ asked: true, found: false, note: expect.stringContaining("no personal data") });
  });

  it("reports the local rows only when the shop is not connected to a service", async () => {
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "5", email: "jon@example.com", status: "skipped" } });
    const request = await requestData("jon@example.com");
    await pipeline.drain();
    const body = await report(request.id);
    expect(body.referralService).toMatchObject({ asked: false, note: expect.stringContaining("not connected") });
    expect(body.app.orderRecords).toHaveLength(1);
  });

  it("waits for the export rate limit inside the client (a 429 with Retry-After is waited out)", async () => {
    await connectShop(sandbox);
    await recordReferredOrder("jon@example.com");
    await sandboxFaults(sandbox, { rateLimitNext: 1, operations: ["compliance/export"] });
    const request = await requestData("jon@example.com");

    await pipeline.drain();

    expect(await prisma.dataRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "ready" });
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "privacy.export" } })).toMatchObject({ status: "done", attempts: 1 });
  });

  it("retries the job later when the service still answers 429", async () => {
    await connectShop(sandbox);
    await recordReferredOrder("jon@example.com");
    // A client that does not wait out 429s itself, so the job's own retry is what is tested.
    Object.assign(pipeline.ctx, {
      clientForShop: async () => ({
        ok: true,
        client: createReferralClient({
          baseUrl: sandbox.baseUrl,
          username: sandbox.username,
          token: sandbox.token,
          exportRateLimitRetries: 0,
          exportLimiter: createExportLimiter({ limit: 100 }),
          network: { allowLoopback: true },
        }),
      }),
    });
    await sandboxFaults(sandbox, { rateLimitNext: 1, operations: ["compliance/export"] });
    const request = await requestData("jon@example.com");

    await pipeline.drain();
    const waiting = await prisma.dataRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(waiting).toMatchObject({ status: "open", statusDetail: expect.stringMatching(/^Will retry: .*rate limited/) });
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "privacy.export" } });
    expect(job).toMatchObject({ status: "queued", attempts: 1 });

    pipeline.advance(5 * 60_000);
    await pipeline.drain();
    expect(await prisma.dataRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "ready" });
  });
});
