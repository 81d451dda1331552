import "../admin/browser-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startAppServer, testAppEnv, type AppServer } from "../admin/app-server";
import { DEFAULT_RECONCILE_INTERVAL_MS } from "../../../app/domains/order-sync/job-kinds";
import { scheduleReconcile } from "../../../app/domains/order-sync/reconcile.server";
import { connectShop, sandboxCommissions, testPipeline, useTestSandbox } from "../../support/pipeline";
import { shopifyOrder, type OrderOptions } from "../../support/orders";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned } from "../../support/kept-deliveries";
import { pixelSignalFor, postPixelSignal } from "../storefront/support/requests";

// The web pixel's signal joined with its order on the checkout token, through
// the built app under server.mjs: POST /api/pixel as the pixel sends it
// (text/plain JSON), real-shaped orders/paid webhooks, the jobs run by the
// worker's code, and what the sandbox service counted.

const sandbox = useTestSandbox();
let server: AppServer;

beforeAll(async () => {
  // Behind one proxy, as production usually is: the client's address is the one X-Forwarded-For ends with.
  server = await startAppServer({ ...testAppEnv(), TRUST_PROXY_HOPS: "1" });
}, 60_000);

afterAll(() => server?.stop());

async function deliverOrder(options: OrderOptions & { id: bigint }): Promise<string> {
  const body = shopifyOrder({ email: "jon@example.com", customerEmail: "jon@example.com", ...options });
  const response = await fetch(signedWebhook({ topic: "orders/paid", body, url: `${server.origin}/webhooks/orders/paid` }));
  await response.text();
  expect(response.status).toBe(200);
  await deliveriesPlanned();
  return options.id.toString();
}

/** The pixel's post, through the proxy in front of the app (TRUST_PROXY_HOPS=1), which adds the client's address. */
const postSignal = (body: unknown, headers: Record<string, string> = {}) =>
  postPixelSignal(server.origin, body, { Origin: "https://demo-outfitters.myshopify.com", "X-Forwarded-For": "192.0.2.44", ...headers });

const recordOf = (orderId: string) => prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId } });

async function eventsSent(orderId: string) {
  const ledger = (await (await fetch(`${sandbox.baseUrl}/_sandbox/ledger`)).json()) as { events: { params: Record<string, string>; result: { status: number } }[] };
  return ledger.events.filter((e) => e.params.transaction_uid === orderId);
}

/** Runs every due job, letting `ms` pass first (the shop's pixel sweep runs at the end of the minute of a signal that found no order). */
async function drainAfter(pipeline: ReturnType<typeof testPipeline>, ms = 0) {
  pipeline.advance(ms);
  await pipeline.drain();
}

describe("a pixel signal and its order, whichever comes first", () => {
  it("credits the order once when the signal comes before the webhook", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_101n;
    const signal = await postSignal(pixelSignalFor(id, "ALICE10"));
    expect(signal.status).toBe(204);
    expect(signal.headers.get("access-control-allow-origin")).toBe("*");

    // An order with no code of its own: the intake finds the signal stored and queues the order with it.
    const orderId = await deliverOrder({ id, landingSite: "/" });
    await drainAfter(pipeline);

    const commissions = await sandboxCommissions(sandbox, orderId);
    expect(commissions).toHaveLength(1);
    expect(commissions[0]).toMatchObject({ transaction_id: orderId, affiliate_email: "alice@example.com" });
    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "recorded", shortCode: "ALICE10", codeSource: "pixel", heldEvent: null });
    const explanation = JSON.parse(row.explanation!);
    expect(explanation.signals).toEqual([{ source: "pixel", code: "ALICE10", outcome: "Referral code of alice@example.com", won: true }]);
    expect(explanation.winner).toMatchObject({ source: "pixel", code: "ALICE10", why: expect.stringMatching(/web pixel/) });

    // Shopify delivers the webhook again and the pixel fires again (a reloaded thank-you page): still once.
    await deliverOrder({ id, landingSite: "/" });
    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    await drainAfter(pipeline, 60_000);
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
    expect((await eventsSent(orderId)).filter((e) => e.result.status === 200)).toHaveLength(1);
  });

  it("credits a pixel signal stored before its order when the order arrives, wherever the minute's boundary falls", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_106n;
    const placed = new Date(Date.now() - 1_000);
    // GIVEN the pixel's signal, a second after the order was placed and before its webhook
    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    // AND the shop's sweep at the end of that minute, which finds no order yet
    await drainAfter(pipeline, 61_000);
    expect(await prisma.job.count({ where: { kind: "pixel.sweep", status: "done" } })).toBe(1);

    // WHEN the orders/paid webhook comes after that sweep, with no code of its own
    const orderId = await deliverOrder({ id, landingSite: "/", createdAt: placed });

    // THEN the intake joins the stored signal at once: queued with the pixel's code
    expect(await recordOf(orderId)).toMatchObject({ status: "queued", shortCode: "ALICE10", codeSource: "pixel", heldEvent: null });
    // AND the jobs due now credit it, with no further sweep or reconciliation pass
    await drainAfter(pipeline);
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", shortCode: "ALICE10", codeSource: "pixel" });
    const commissions = await sandboxCommissions(sandbox, orderId);
    expect(commissions).toHaveLength(1);
    expect(commissions[0]).toMatchObject({ transaction_id: orderId, affiliate_email: "alice@example.com" });
    expect(await prisma.job.count({ where: { kind: { in: ["pixel.sweep", "orders.reconcile"] } } })).toBe(1);
  });

  it("credits a pixel signal stored before its order when the webhook comes within the signal's minute", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_107n;
    // GIVEN the pixel's signal, and its order's webhook a moment later, before the shop's sweep is due
    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    const orderId = await deliverOrder({ id, landingSite: "/" });
    // THEN the intake joins the stored signal at once
    expect(await recordOf(orderId)).toMatchObject({ status: "queued", shortCode: "ALICE10", codeSource: "pixel", heldEvent: null });
    await drainAfter(pipeline);
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", shortCode: "ALICE10" });
    // AND the sweep that comes later changes nothing
    await drainAfter(pipeline, 61_000);
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
    expect((await eventsSent(orderId)).filter((e) => e.result.status === 200)).toHaveLength(1);
  });

  it("credits the order once when the signal comes after the webhook, the order waiting for it", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_102n;
    const orderId = await deliverOrder({ id, landingSite: "/" });
    await drainAfter(pipeline);
    expect(await recordOf(orderId)).toMatchObject({ status: "awaiting_signal", shortCode: null });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);

    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    expect(await recordOf(orderId)).toMatchObject({ status: "queued" });
    await drainAfter(pipeline);

    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", shortCode: "ALICE10" });
    // The same job, by its key: re-queued, not a second one.
    expect(await prisma.job.count({ where: { shop: TEST_SHOP, kind: "order.record", key: { contains: orderId } } })).toBe(1);
    await drainAfter(pipeline, 60_000);
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
  });

  it("credits the order once when its webhook comes 40 minutes after the signal, as the order arrives", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    // The reconciliation pass reads Shopify's orders from the Admin API stand-in (nothing to find there).
    pipeline.ctx.adminForShop = new ShopifyAdminStandIn().access();
    const id = 6_120_000_000_000_000_105n;
    // GIVEN an order placed, and the pixel's signal 5 s later, before any webhook
    const placed = new Date(Date.now() - 5_000);
    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    // AND the shop's sweep at the end of that minute, which finds no order yet
    await drainAfter(pipeline, 61_000);
    expect(await prisma.job.count({ where: { kind: "pixel.sweep", status: "done" } })).toBe(1);

    // WHEN the orders/paid webhook comes 40 minutes later (the payment captured later, or Shopify retrying after an outage),
    // with no code of its own: the intake finds the signal stored and queues the order with it
    pipeline.advance(40 * 60_000);
    const orderId = await deliverOrder({ id, landingSite: "/", createdAt: placed });
    expect(await recordOf(orderId)).toMatchObject({ status: "queued", shortCode: "ALICE10", codeSource: "pixel" });
    await drainAfter(pipeline);

    // THEN the signal, which came 5 s after the order was placed, credits it once
    const commissions = await sandboxCommissions(sandbox, orderId);
    expect(commissions).toHaveLength(1);
    expect(commissions[0]).toMatchObject({ transaction_id: orderId, affiliate_email: "alice@example.com" });
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", shortCode: "ALICE10", codeSource: "pixel" });
    // AND later passes and sweeps change nothing
    await scheduleReconcile(prisma, TEST_SHOP, pipeline.ctx.now(), DEFAULT_RECONCILE_INTERVAL_MS);
    await drainAfter(pipeline, DEFAULT_RECONCILE_INTERVAL_MS);
    await drainAfter(pipeline);
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
    expect((await eventsSent(orderId)).filter((e) => e.result.status === 200)).toHaveLength(1);
  });

  it("re-opens an order whose job found only the store's own promotion, and asks the service once more", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_103n;
    const orderId = await deliverOrder({ id, discountCodes: ["SUMMER20"] });
    await drainAfter(pipeline);
    // Judged by its job: not referred, but no signal weighed yet, so it waits for one; the code it did not pick is not kept
    expect(await recordOf(orderId)).toMatchObject({ status: "awaiting_signal", shortCode: null, couponCode: null });

    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    await drainAfter(pipeline);
    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "recorded", shortCode: "ALICE10" });
    expect(JSON.parse(row.explanation!).signals).toEqual([
      { source: "pixel", code: "ALICE10", outcome: "Referral code of alice@example.com", won: true },
      { source: "discount_code", code: "SUMMER20", outcome: "Not looked at: an earlier signal won" },
    ]);
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
  });

  it("keeps the cart's link first, and notes the pixel's code", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_104n;
    expect((await postSignal(pixelSignalFor(id, "BOB10"))).status).toBe(204);
    const orderId = await deliverOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    await drainAfter(pipeline);
    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "recorded", shortCode: "ALICE10" });
    expect(JSON.parse(row.explanation!).signals).toEqual([
      { source: "cart_attribute", code: "ALICE10", outcome: "Referral code of alice@example.com", won: true },
      { source: "pixel", code: "BOB10", outcome: "Not used: the link kept in the cart comes first" },
    ]);
    await drainAfter(pipeline, 61_000);
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
  });
});

describe("an order waiting for its pixel signal", () => {
  it("is not referred once 30 minutes pass with no signal, by the shop's sweep booked when it began to wait", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_108n;
    // GIVEN an order with no code of its own: it waits for its signal, its event kept, no recording job
    const orderId = await deliverOrder({ id, landingSite: "/" });
    expect(await recordOf(orderId)).toMatchObject({ status: "awaiting_signal", heldEvent: expect.any(String), statusReason: expect.stringMatching(/web pixel/) });
    expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(0);
    expect(await prisma.job.count({ where: { kind: "pixel.sweep", status: "queued" } })).toBe(1);
    await drainAfter(pipeline, 29 * 60_000);
    expect(await recordOf(orderId)).toMatchObject({ status: "awaiting_signal" });

    // WHEN its 30 minutes pass with no signal, and nothing else (no reconciliation pass)
    await drainAfter(pipeline, 2 * 60_000);

    // THEN it is not referred, for good: its event goes, and a signal that comes now changes nothing
    expect(await recordOf(orderId)).toMatchObject({ status: "not_referred", heldEvent: null, statusReason: "Not referred: no web pixel signal came within 30 minutes of the order" });
    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    await drainAfter(pipeline, 61_000);
    expect(await recordOf(orderId)).toMatchObject({ status: "not_referred" });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
  });

  it("is skipped when the order is cancelled, and a signal that comes later credits nothing", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_109n;
    const orderId = await deliverOrder({ id, landingSite: "/" });
    expect(await recordOf(orderId)).toMatchObject({ status: "awaiting_signal" });
    const cancelled = { ...shopifyOrder({ id, email: "jon@example.com" }), cancelled_at: new Date().toISOString(), financial_status: "voided" };
    const response = await fetch(signedWebhook({ topic: "orders/cancelled", body: cancelled, url: `${server.origin}/webhooks/orders/cancelled` }));
    await response.text();
    expect(response.status).toBe(200);
    await drainAfter(pipeline);
    expect(await recordOf(orderId)).toMatchObject({ status: "skipped", heldEvent: null });
    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    await drainAfter(pipeline, 61_000);
    expect(await recordOf(orderId)).toMatchObject({ status: "skipped" });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
  });
});

describe("the one precedence, at intake and in the decision", () => {
  it("puts the web pixel's stored code before the landing page's, from the intake on", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_110n;
    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    const orderId = await deliverOrder({ id, landingSite: "/?mbsy=BOB10" });
    expect(await recordOf(orderId)).toMatchObject({ status: "queued", shortCode: "ALICE10", codeSource: "pixel" });
    await drainAfter(pipeline);
    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "recorded", shortCode: "ALICE10", codeSource: "pixel" });
    expect(JSON.parse(row.explanation!).signals).toEqual([
      { source: "pixel", code: "ALICE10", outcome: "Referral code of alice@example.com", won: true },
      { source: "landing_page", code: "BOB10", outcome: "Not used: the link the web pixel sent comes first" },
    ]);
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.affiliate_email)).toEqual(["alice@example.com"]);
  });

  it("puts the cart's link before the web pixel's stored code, from the intake on", async () => {
    await connectShop(sandbox);
    const id = 6_120_000_000_000_000_111n;
    expect((await postSignal(pixelSignalFor(id, "BOB10"))).status).toBe(204);
    const orderId = await deliverOrder({ id, landingSite: "/?mbsy=BOB10", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    expect(await recordOf(orderId)).toMatchObject({ status: "queued", shortCode: "ALICE10", codeSource: "cart_attribute" });
  });
});

describe("a forged pixel signal", () => {
  /** A checkout token nobody's checkout has: what a stranger makes up. */
  const madeUpToken = (n: number) => `f${String(n).padStart(31, "0")}`;

  it("credits nothing and re-opens nothing with a made-up token and a real order id", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_201n;
    const orderId = await deliverOrder({ id, landingSite: "/" });
    await drainAfter(pipeline);
    expect(await recordOf(orderId)).toMatchObject({ status: "awaiting_signal" });

    expect((await postSignal(pixelSignalFor(id, "ALICE10", { checkoutToken: madeUpToken(1), orderId: orderId }))).status).toBe(204);
    await drainAfter(pipeline, 61_000);
    expect(await recordOf(orderId)).toMatchObject({ status: "awaiting_signal" });
    // AND once its wait is over it is not referred
    await drainAfter(pipeline, 31 * 60_000);
    expect(await recordOf(orderId)).toMatchObject({ status: "not_referred" });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
  });

  it("never outranks the buyer's own link when posted before the order", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_202n;
    expect((await postSignal(pixelSignalFor(id, "ALICE10", { checkoutToken: madeUpToken(2), orderId: id.toString() }))).status).toBe(204);
    const orderId = await deliverOrder({ id, landingSite: "/?mbsy=BOB10" });
    await drainAfter(pipeline);
    await drainAfter(pipeline, 61_000);

    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "recorded", shortCode: "BOB10" });
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.affiliate_email)).toEqual(["bob@example.com"]);
    expect(JSON.parse(row.explanation!).signals.map((s: { source: string }) => s.source)).toEqual(["landing_page"]);
  });

  it("is ignored when it names another order than its checkout's", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_203n;
    const orderId = await deliverOrder({ id, landingSite: "/" });
    await drainAfter(pipeline);
    // The real token of this order, but another order's id: not this checkout's signal.
    expect((await postSignal(pixelSignalFor(id, "ALICE10", { orderId: "6120000000000000999" }))).status).toBe(204);
    await drainAfter(pipeline, 61_000);
    expect(await recordOf(orderId)).toMatchObject({ status: "awaiting_signal" });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
  });

  it("re-opens an order only within half an hour of its placing", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 6_120_000_000_000_000_204n;
    const placed = new Date(Date.now() - 2 * 60 * 60_000);
    const orderId = await deliverOrder({ id, landingSite: "/", createdAt: placed });
    await drainAfter(pipeline);
    expect((await postSignal(pixelSignalFor(id, "ALICE10"))).status).toBe(204);
    await drainAfter(pipeline, 61_000);
    expect(await recordOf(orderId)).toMatchObject({ status: "not_referred" });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
  });

  it("costs a bounded number of rows and no job per post, and real buyers of other shops go on", async () => {
    await connectShop(sandbox);
    const flooder = { "X-Forwarded-For": "203.0.113.1" };
    const post = (n: number) => postSignal({ shop: TEST_SHOP, checkoutToken: madeUpToken(10_000 + n), orderId: `${7_000_000 + n}`, code: "ALICE10", campaign: "" }, flooder);
    const statuses = new Map<number, number>();
    // 2,000 posts: over three times what one address may send to all shops together (600 a minute),
    // so both limits refuse some; beyond that each post is refused before its body is read.
    for (let from = 0; from < 2_000; from += 100) {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(from + i).then(async (r) => (await r.text(), r.status))));
      for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect([...statuses.keys()].sort()).toEqual([204, 429]);
    // One address: its share for the shop (PIXEL_LIMIT_PER_ADDRESS, 60 a minute), however many posts.
    expect(await prisma.pixelSignal.count({ where: { shop: TEST_SHOP } })).toBeLessThanOrEqual(60 * 2);
    expect(await prisma.job.count({ where: { kind: "pixel.match" } })).toBe(0);
    expect(await prisma.job.count({ where: { kind: "pixel.sweep" } })).toBeLessThanOrEqual(2);

    // A real buyer of another shop, from another address, is not refused.
    await connectShop(sandbox, { shop: "other-shop.myshopify.com" });
    const other = await postSignal({ ...pixelSignalFor(6_120_000_000_000_000_205n, "ALICE10"), shop: "other-shop.myshopify.com" }, { "X-Forwarded-For": "198.51.100.77" });
    expect(other.status).toBe(204);
  }, 120_000);
});

describe("the pixel's endpoint", () => {
  it("answers an unknown shop as it answers a known one, and stores nothing for it", async () => {
    await connectShop(sandbox);
    const unknown = await postSignal({ ...pixelSignalFor(1n, "ALICE10"), shop: "someone-else.myshopify.com" });
    const known = await postSignal(pixelSignalFor(2n, "ALICE10"));
    expect([unknown.status, known.status]).toEqual([204, 204]);
    expect(await unknown.text()).toBe(await known.text());
    expect(await prisma.pixelSignal.count({ where: { shop: "someone-else.myshopify.com" } })).toBe(0);
    expect(await prisma.pixelSignal.count({ where: { shop: TEST_SHOP } })).toBe(1);
  });

  it("refuses malformed and oversized signals, and answers the preflight", async () => {
    await connectShop(sandbox);
    const cases: [unknown, RegExp][] = [
      ["not json", /not JSON/],
      [[1, 2], /not a JSON object/],
      [{ ...pixelSignalFor(3n, "ALICE10"), shop: "https://evil.example" }, /shop/],
      [{ ...pixelSignalFor(3n, "ALICE10"), checkoutToken: "<script>" }, /checkoutToken/],
      [{ ...pixelSignalFor(3n, "ALICE10"), code: "A".repeat(65) }, /code/],
      [{ ...pixelSignalFor(3n, "ALICE10"), code: "ALICE10\"><img>" }, /code/],
      [{ ...pixelSignalFor(3n, "ALICE10"), orderId: 6120000000000000 }, /orderId/],
      [{ ...pixelSignalFor(3n, "ALICE10"), campaign: "x".repeat(40) }, /campaign/],
    ];
    for (const [body, problem] of cases) {
      const response = await postSignal(body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(problem);
    }
    const huge = await postSignal({ ...pixelSignalFor(3n, "ALICE10"), padding: "x".repeat(5_000) });
    expect(huge.status).toBe(413);
    const preflight = await fetch(`${server.origin}/api/pixel`, { method: "OPTIONS", headers: { Origin: "https://x.example", "Access-Control-Request-Method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect((await fetch(`${server.origin}/api/pixel`)).status).toBe(405);
    expect(await prisma.pixelSignal.count()).toBe(0);
  });
});
