// Shopify Flow calling the app's actions (extensions/flow-action-*), end to
// end: Flow's signed POST to /flow/actions on the built app under server.mjs,
// the job run by the worker's code against the sandbox service and the Admin
// stand-in, and the run's row on the Service events page.
import "../../entry/admin/browser-env";
import { randomUUID } from "node:crypto";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FlowActionRunsCard } from "../../../app/entry/admin/components/FlowActionRunsCard";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES } from "../../../app/wiring/env.server";
import { loader as eventsLoader } from "../../../app/routes/app.events";
import { load } from "../../entry/admin/admin-requests";
import { startTestAppServer, type AppServer } from "../../entry/admin/app-server";
import { shopifyOrder } from "../../support/orders";
import { connectShop, sandboxCommissions, sandboxFaults, testPipeline, useTestSandbox, type TestPipeline } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

const sandbox = useTestSandbox();
let server: AppServer;
let pipeline: TestPipeline;
let shopify: ShopifyAdminStandIn;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);
afterAll(() => server?.stop());

beforeEach(async () => {
  await connectShop(sandbox);
  pipeline = testPipeline();
  shopify = new ShopifyAdminStandIn();
  pipeline.ctx.adminForShop = shopify.access();
});

const ACTION_NAMES: Record<string, string> = { "enrol-ambassador": "Enrol a customer as an ambassador", "decide-commission": "Approve or deny a referral commission" };

/** Flow's body for one action run, as Shopify documents it (ids as strings; action_definition_id is the action's name). */
function flowBody(handle: string, properties: Record<string, unknown>, actionRunId: string = randomUUID()) {
  return { shop_id: "60241035329", shopify_domain: TEST_SHOP, action_run_id: actionRunId, action_definition_id: ACTION_NAMES[handle] ?? handle, handle, properties };
}

/** Posts to the app's action endpoint, signed with the app's secret unless told otherwise. */
async function callAction(raw: string, options: { signature?: string | null; signedRaw?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const signature = options.signature === undefined ? getHmac(options.signedRaw ?? raw, process.env.SHOPIFY_API_SECRET!) : options.signature;
  if (signature !== null) headers["X-Shopify-Hmac-Sha256"] = signature;
  const response = await fetch(`${server.origin}/flow/actions`, { method: "POST", headers, body: raw });
  return { status: response.status, text: await response.text() };
}

const numericId = (gid: string) => gid.split("/").pop()!;
const runs = () => prisma.flowActionRun.findMany({ where: { shop: TEST_SHOP }, orderBy: { receivedAt: "asc" } });
async function ambassadorsAtService() {
  const ledger = (await (await fetch(`${sandbox.baseUrl}/_sandbox/ledger`)).json()) as { ambassadors: { email: string; uid?: string | null; groups?: string[] }[] };
  return ledger.ambassadors;
}

describe("a Flow action call that is not Shopify's", () => {
  it("is refused with 401 and changes nothing: no signature, another secret, a body changed after signing", async () => {
    const customer = shopify.customers.add("forged@example.com");
    const raw = JSON.stringify(flowBody("enrol-ambassador", { customer_id: numericId(customer.id) }));
    const forgedBody = JSON.stringify(flowBody("enrol-ambassador", { customer_id: numericId(customer.id), group: "9" }));
    expect((await callAction(raw, { signature: null })).status).toBe(401);
    expect((await callAction(raw, { signature: getHmac(raw, "not-the-app-secret") })).status).toBe(401);
    expect((await callAction(forgedBody, { signedRaw: raw })).status).toBe(401);
    expect((await callAction(raw, { signature: "" })).status).toBe(401);

    expect(await runs()).toEqual([]);
    expect(await prisma.job.count({ where: { kind: "flow.action" } })).toBe(0);
    await pipeline.drain();
    expect((await ambassadorsAtService()).map((a) => a.email)).not.toContain("forged@example.com");
  });

  it("refuses a signed body that is not one of the app's actions (400) or names a shop without the app (404)", async () => {
    expect((await callAction(JSON.stringify(flowBody("enrol-ambassador", { customer_id: "x" })))).status).toBe(400);
    expect((await callAction(JSON.stringify(flowBody("delete-everything", {})))).status).toBe(400);
    expect((await callAction("{not json")).status).toBe(400);
    const elsewhere = { ...flowBody("enrol-ambassador", { customer_id: 1 }), shopify_domain: "no-app-here.myshopify.com" };
    expect((await callAction(JSON.stringify(elsewhere))).status).toBe(404);
    expect(await runs()).toEqual([]);
  });
});

describe("Enrol a customer as an ambassador", () => {
  it("enrols the customer Flow names at the service, into the group given, once however often Flow delivers the run", async () => {
    const customer = shopify.customers.add("flow.friend@example.com");
    const raw = JSON.stringify(flowBody("enrol-ambassador", { customer_id: numericId(customer.id), group: "2" }, "run-enrol-1"));
    const started = performance.now();
    expect(await callAction(raw)).toEqual({ status: 200, text: "OK" });
    const answeredInMs = performance.now() - started;
    expect(await callAction(raw)).toEqual({ status: 200, text: "OK" });
    expect(await prisma.job.count({ where: { kind: "flow.action" } })).toBe(1);
    expect(answeredInMs).toBeLessThan(5_000);

    await pipeline.drain();
    const enrolled = (await ambassadorsAtService()).filter((a) => a.email === "flow.friend@example.com");
    expect(enrolled).toHaveLength(1);
    expect(enrolled[0]).toMatchObject({ uid: numericId(customer.id), groups: ["2"] });
    const [run] = await runs();
    expect(run).toMatchObject({
      actionRunId: "run-enrol-1",
      handle: "enrol-ambassador",
      customerId: numericId(customer.id),
      request: `Enrol customer ${numericId(customer.id)} as an ambassador (group 2)`,
      state: "done",
      detail: "Enrolled flow.friend@example.com in group 2.",
    });
    // The stand-in was asked for the customer's email with a document valid against the 2026-10 schema.
    expect(shopify.callsOf("ReferralCustomer").length).toBeGreaterThan(0);

    const page = await load(eventsLoader, "/app/events");
    expect(page.flowRuns).toEqual([
      expect.objectContaining({ request: run!.request, state: "done", detail: "Enrolled flow.friend@example.com in group 2." }),
    ]);
  });

  it("puts the new ambassador's share link on their Shopify customer when the shop keeps it there", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), "write_customers"];
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { shareLinkMetafield: true } });
    const customer = shopify.customers.add("flow.linked@example.com");
    expect(await callAction(JSON.stringify(flowBody("enrol-ambassador", { customer_id: numericId(customer.id) })))).toEqual({ status: 200, text: "OK" });

    await pipeline.drain();
    expect((await runs())[0]).toMatchObject({ state: "done" });
    expect(shopify.customerMetafields.valueOf(customer.id, "share_link")).toMatch(/^https?:\/\//);
    expect(shopify.customerMetafields.valueOf(customer.id, "share_code")).toBeTruthy();
  });

  it("records a clear reason when the shop has no such customer, and retries while the service is down", async () => {
    const missing = JSON.stringify(flowBody("enrol-ambassador", { customer_id: "7300000000001" }, "run-missing"));
    expect((await callAction(missing)).status).toBe(200);
    await pipeline.drain();
    expect((await runs())[0]).toMatchObject({ state: "failed", detail: "Not enrolled: the shop has no customer 7300000000001." });

    const customer = shopify.customers.add("later@example.com");
    await sandboxFaults(sandbox, { failNext: 1, operations: ["ambassador/get"] });
    expect((await callAction(JSON.stringify(flowBody("enrol-ambassador", { customer_id: numericId(customer.id) }, "run-later")))).status).toBe(200);
    await pipeline.drain();
    const waiting = (await runs()).find((r) => r.actionRunId === "run-later")!;
    expect(waiting.state).toBe("queued");
    expect(waiting.detail).toMatch(/^Attempt 1 failed, trying again/);
    pipeline.advance(10 * 60_000);
    await pipeline.drain();
    expect((await runs()).find((r) => r.actionRunId === "run-later")).toMatchObject({ state: "done", detail: "Enrolled later@example.com." });
  });

  it("forgets the runs about a customer when Shopify asks for their erasure (customers/redact)", async () => {
    const customer = shopify.customers.add("erase.me@example.com");
    const id = numericId(customer.id);
    const delivery = JSON.stringify(flowBody("enrol-ambassador", { customer_id: id }, "run-erase"));
    expect((await callAction(delivery)).status).toBe(200);
    await pipeline.drain();
    expect(await runs()).toHaveLength(1);
    const redact = { shop_id: 60_241_035_329, shop_domain: TEST_SHOP, customer: { id: Number(id), email: "erase.me@example.com", phone: null }, orders_to_redact: [] };
    const response = await fetch(signedWebhook({ topic: "customers/redact", body: redact, url: `${server.origin}/webhooks/customers/redact` }));
    expect(response.status).toBe(200);
    await pipeline.drain();
    // Nothing about them is left; the run's action_run_id stays, as the key that keeps the run from running twice.
    const [erased] = await runs();
    expect(erased).toMatchObject({ actionRunId: "run-erase", request: "Erased (customers/redact)", payload: "{}", customerId: null, orderId: null, detail: null });
    expect(JSON.stringify(await runs())).not.toContain("erase.me");

    // WHEN Flow delivers the old run again, after its job is gone too (the purge)
    await prisma.job.deleteMany({ where: { kind: "flow.action" } });
    const enrolledBefore = (await ambassadorsAtService()).length;
    expect(await callAction(delivery)).toEqual({ status: 200, text: "OK" });
    await pipeline.drain();

    // THEN it is a repeat: no job, no second enrolment, no row naming them again
    expect(await prisma.job.count({ where: { kind: "flow.action" } })).toBe(0);
    expect(await ambassadorsAtService()).toHaveLength(enrolledBefore);
    expect(await runs()).toMatchObject([{ actionRunId: "run-erase", customerId: null }]);
  });

  it("shows an empty state on the Service events page before any run", async () => {
    const page = await load(eventsLoader, "/app/events");
    expect(page.flowRuns).toEqual([]);
    const html = renderToString(createElement(AppProvider, { i18n: en }, createElement(FlowActionRunsCard, { runs: page.flowRuns })));
    expect(html).toContain("No Flow actions yet.");
  });

  it("shows each run on the page: what Flow asked, its state and what happened", async () => {
    const customer = shopify.customers.add("row@example.com");
    expect((await callAction(JSON.stringify(flowBody("enrol-ambassador", { customer_id: numericId(customer.id) }, "run-row")))).status).toBe(200);
    await pipeline.drain();
    const page = await load(eventsLoader, "/app/events");
    const html = renderToString(createElement(AppProvider, { i18n: en }, createElement(FlowActionRunsCard, { runs: page.flowRuns })));
    expect(html).not.toContain("No Flow actions yet.");
    expect(html).toContain(`Enrol customer ${numericId(customer.id)} as an ambassador`);
    expect(html).toContain("Done");
    expect(html).toContain("Enrolled row@example.com.");
  });
});

describe("Approve or deny a referral commission", () => {
  async function referredOrder(id: bigint) {
    const response = await fetch(
      signedWebhook({ topic: "orders/paid", body: shopifyOrder({ id, email: "jon@example.com", customerEmail: "jon@example.com", discountCodes: ["ALICE-15"] }), url: `${server.origin}/webhooks/orders/paid` }),
    );
    expect(response.status).toBe(200);
    await pipeline.drain();
    const [commission] = await sandboxCommissions(sandbox, id.toString());
    expect(commission).toMatchObject({ state: "pending" });
  }

  it("approves the order's pending commission at the service, as the Commissions page does", async () => {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    await referredOrder(820982911946155001n);
    const raw = JSON.stringify(flowBody("decide-commission", { order_id: 820982911946155001n.toString(), decision: "approve", reason: "Reviewed in Flow" }, "run-approve"));
    expect((await callAction(raw)).status).toBe(200);
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, "820982911946155001"))[0]).toMatchObject({ state: "approved" });
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId: "820982911946155001" } })).toMatchObject({ commissionState: "approved" });
    expect((await runs())[0]).toMatchObject({ state: "done", orderId: "820982911946155001", detail: expect.stringMatching(/: Approved\. Reason: Reviewed in Flow$/) });
    // Its owner sent the decision's trigger, as for the page's.
    expect(shopify.flow.receivedOf("commission-approved")).toEqual([
      { handle: "commission-approved", payload: { order_id: "820982911946155001", "Referrer email": "", Campaign: "1001", "Approved by": "merchant" } },
    ]);
  });

  it("denies it, and a second run on a decided commission is recorded as not changed", async () => {
    await referredOrder(820982911946155002n);
    const deny = (run: string) => JSON.stringify(flowBody("decide-commission", { order_id: "820982911946155002", decision: "deny" }, run));
    expect((await callAction(deny("run-deny-1"))).status).toBe(200);
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, "820982911946155002"))[0]).toMatchObject({ state: "denied" });
    expect((await callAction(deny("run-deny-2"))).status).toBe(200);
    await pipeline.drain();
    const second = (await runs()).find((r) => r.actionRunId === "run-deny-2")!;
    expect(second).toMatchObject({ state: "failed", detail: expect.stringMatching(/has no pending referral commission \(its commission is denied\)/) });
  });
});
