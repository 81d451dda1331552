import "../admin/browser-env";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { startTestAppServer, type AppServer } from "../admin/app-server";
import { resetDatabase } from "../../support/database";
import { expectServedError } from "../../support/served-output";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned, expectUnreadable } from "../../support/kept-deliveries";

// What Shopify's signature does not cover, through the served build: the
// order fast path (server.mjs) and the Remix webhook routes.

let server: AppServer;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);

afterAll(() => server?.stop());

const OTHER_SHOP = "other-shop.myshopify.com";

beforeEach(async () => {
  await resetDatabase();
  await installShop();
  await installShop(OTHER_SHOP);
});

const order = (id: number) => shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });

/** A signed delivery sent to `path`, with its headers changed by `change`. */
async function send(path: string, options: Parameters<typeof signedWebhook>[0], change: (headers: Headers) => void = () => undefined) {
  const signed = signedWebhook({ ...options, url: `${server.origin}${path}` });
  const headers = new Headers(signed.headers);
  change(headers);
  const response = await fetch(signed.url, { method: "POST", headers, body: await signed.text() });
  await deliveriesPlanned();
  return response;
}

/** Raw HTTP, for what fetch cannot send (a header twice, a body that never ends). */
function raw(path: string, headers: [string, string][], body: Buffer | null, options: { end: boolean } = { end: true }) {
  return new Promise<{ status: number; text: string; sent: number }>((resolve, reject) => {
    // A raw list keeps a repeated header; an object lets Node frame a body that never ends (chunked).
    const list = options.end ? (headers.flat() as unknown as Record<string, string>) : Object.fromEntries(headers);
    const req = httpRequest(`${server.origin}${path}`, { method: "POST", headers: list });
    let sent = 0;
    req.on("response", (res) => {
      if (!req.destroyed) setTimeout(() => req.destroy(), 50);
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text, sent }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, text, sent }));
    });
    // The server half-closes after an answer that leaves the body unread (server.mjs), so the answer is
    // always there to read: an error before it (a reset) fails the test.
    req.on("error", reject);
    if (body) {
      req.write(body);
      sent += body.length;
    }
    if (options.end) req.end();
    else {
      // Keeps sending 64 KiB chunks until the server answers (or 48 MiB went).
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 48 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
      };
      pump();
    }
  });
}

/**
 * Raw HTTP on a socket, for a body that arrives slowly: the headers (a
 * Content-Length of `total`), then `chunk` bytes every `everyMs` until the
 * server answers or all was sent (spaces, or `body`'s bytes in turn). What was sent when the answer came, and
 * whether the server let the connection go within 3 s of answering (if not,
 * this side closes it).
 */
function trickle(path: string, headers: [string, string][], options: { total: number; chunk: number; everyMs: number; body?: Buffer }) {
  return new Promise<{ status: number; text: string; sent: number; answeredAfterMs: number; serverClosed: boolean }>((resolve, reject) => {
    const { hostname, port } = new URL(server.origin);
    const socket = connect(Number(port), hostname);
    const started = performance.now();
    let received = "";
    let sent = 0;
    let answeredAfterMs = NaN;
    let serverClosed = true;
    const head = [`POST ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, `Content-Length: ${options.total}`, ...headers.map(([name, value]) => `${name}: ${value}`)];
    socket.write(`${head.join("\r\n")}\r\n\r\n`);
    const pump = setInterval(() => {
      if (!Number.isNaN(answeredAfterMs) || sent >= options.total || socket.destroyed) return clearInterval(pump);
      const size = Math.min(options.chunk, options.total - sent);
      socket.write(options.body ? options.body.subarray(sent, sent + size) : Buffer.alloc(size, 0x20));
      sent += size;
    }, options.everyMs);
    socket.on("data", (data: Buffer) => {
      received += data.toString("latin1");
      if (Number.isNaN(answeredAfterMs) && received.includes("\r\n\r\n")) {
        answeredAfterMs = performance.now() - started;
        setTimeout(() => {
          serverClosed = socket.readableEnded;
          socket.destroy();
        }, 3_000).unref();
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(pump);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      if (!status) return reject(new Error(`no answer after ${sent} bytes`));
      resolve({ status, text: received.split("\r\n\r\n")[1] ?? "", sent, answeredAfterMs, serverClosed });
    });
  });
}

/** Every header Shopify sends, for `path`'s topic, with a signature that does not matter (the body is never read whole). */
const shopifyHeaders = (path: string, change: Record<string, string | null> = {}): [string, string][] => {
  const headers: Record<string, string | null> = {
    "Content-Type": "application/json",
    "X-Shopify-Topic": path.replace("/webhooks/", ""),
    "X-Shopify-Shop-Domain": TEST_SHOP,
    "X-Shopify-Hmac-Sha256": "AAAA",
    "X-Shopify-Webhook-Id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
    "X-Shopify-Api-Version": "2026-10",
    "X-Shopify-Triggered-At": new Date().toISOString(),
    ...change,
  };
  return Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null);
};

describe("what the headers say, before the body is read", () => {
  const TWO_MB = 2 * 1024 * 1024;

  it("refuses a 2 MB body without an HMAC header, with two, or for another topic, having read almost none of it", async () => {
    const cases: [path: string, headers: [string, string][], status: number][] = [
      ["/webhooks/orders/paid", shopifyHeaders("/webhooks/orders/paid", { "X-Shopify-Hmac-Sha256": null }), 400],
      ["/webhooks/orders/paid", [...shopifyHeaders("/webhooks/orders/paid"), ["X-Shopify-Hmac-Sha256", "BBBB"]], 400],
      ["/webhooks/orders/paid", shopifyHeaders("/webhooks/orders/paid", { "X-Shopify-Topic": "orders/cancelled" }), 400],
      ["/webhooks/refunds/create", shopifyHeaders("/webhooks/refunds/create", { "X-Shopify-Shop-Domain": null }), 400],
      // The Remix routes of the other topics: unsigned is 401, before the body (their signature comes first)
      ["/webhooks/customers/redact", shopifyHeaders("/webhooks/customers/redact", { "X-Shopify-Hmac-Sha256": null }), 401],
      ["/webhooks/app/uninstalled", [...shopifyHeaders("/webhooks/app/uninstalled"), ["X-Shopify-Hmac-Sha256", "BBBB"]], 401],
    ];
    for (const [path, headers, status] of cases) {
      // 16 KiB every 25 ms: the whole body would take 3.2 s; an answer after reading it would come after all of it was sent.
      const answer = await trickle(path, headers, { total: TWO_MB, chunk: 16 * 1024, everyMs: 25 });
      expect([path, answer.status], JSON.stringify(headers)).toEqual([path, status]);
      expect(answer.sent, path).toBeLessThan(TWO_MB / 2);
      expect(answer.serverClosed, path).toBe(true);
    }
    expect(await prisma.job.count()).toBe(0);
  }, 60_000);

  it("stores a signed order whose body arrives in pieces, byte for byte (its 64-bit id exact)", async () => {
    // 300 ms apart, so that the server reads them as three chunks even when its event loop is slow.
    const id = 9_007_199_254_740_993n; // 2^53 + 1: a double would round it
    const raw = JSON.stringify(order(1)).replace('"id":1,', `"id":${id},`).replace('"admin_graphql_api_id":"gid://shopify/Order/1"', `"admin_graphql_api_id":"gid://shopify/Order/${id}"`);
    expect(raw).toContain(`"id":${id},`);
    const signed = signedWebhook({ topic: "orders/paid", body: null, raw, url: `${server.origin}/webhooks/orders/paid` });
    const headers = [...signed.headers.entries()].filter(([name]) => name !== "content-length");
    const body = Buffer.from(raw);
    const answer = await trickle("/webhooks/orders/paid", headers, { total: body.length, chunk: Math.ceil(body.length / 3), everyMs: 300, body });
    expect(answer.status).toBe(200);
    expect(await prisma.orderRecord.findMany({ where: { shop: TEST_SHOP }, select: { orderId: true } })).toEqual([{ orderId: String(id) }]);
  });

  it("reads the body of an installed shop's delivery, once the headers are sound", async () => {
    const answer = await trickle("/webhooks/orders/paid", shopifyHeaders("/webhooks/orders/paid"), { total: 64 * 1024, chunk: 16 * 1024, everyMs: 25 });
    // All of it was read, then the signature was found wrong; the connection stays open for the next delivery.
    expect([answer.status, answer.sent, answer.serverClosed]).toEqual([401, 64 * 1024, false]);
  });

  it("cuts off a body that trickles past the deadline with 408 and lets the connection go (fast path, Remix route, service webhooks)", async () => {
    const slow = { total: 1_000, chunk: 10, everyMs: 500 };
    const { endpointId } = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
    const service: [string, [string, string][]] = [`/referral-webhooks/${endpointId}`, [["Content-Type", "application/json"], ["X-SERVICE-HMAC-SHA256", "AAAA"]]];
    const answers = await Promise.all(
      [...["/webhooks/orders/paid", "/webhooks/customers/redact"].map((path): [string, [string, string][]] => [path, shopifyHeaders(path)]), service].map(([path, headers]) =>
        trickle(path, headers, slow),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(408);
      expect(answer.text).toContain("The request body did not arrive in time");
      expect(answer.answeredAfterMs).toBeGreaterThan(9_500);
      expect(answer.answeredAfterMs).toBeLessThan(14_000);
      expect(answer.sent).toBeLessThan(slow.total);
      // The server closes the connection with its answer.
      expect(answer.serverClosed).toBe(true);
    }
    expect(await prisma.serviceEvent.count()).toBe(0);
  }, 40_000);
});

describe("signature first: a forged order delivery says nothing of which shops have the app", () => {
  it("answers a forged delivery 401 for an installed shop and for any other, and a signed one for a shop without the app 403", async () => {
    const forged = { topic: "orders/paid", body: order(8101), secret: "not-the-app-secret" };
    const answers: [string, number, string][] = [];
    for (const shop of [TEST_SHOP, OTHER_SHOP, "no-app-here.myshopify.com"]) {
      const response = await send("/webhooks/orders/paid", { ...forged, shop });
      answers.push([shop, response.status, await response.text()]);
    }
    expect(new Set(answers.map(([, status, text]) => `${status} ${text}`)).size).toBe(1);
    expect(answers[0]![1]).toBe(401);
    // Kept: Shopify delivers it again, should the shop be installing the app just now.
    const signed = await send("/webhooks/orders/paid", { topic: "orders/paid", body: order(8102), shop: "no-app-here.myshopify.com" });
    expect([signed.status, await signed.text()]).toEqual([403, "The app is not installed on this shop."]);
    expect(await prisma.job.count()).toBe(0);
  });
});

describe("topic bound to the address", () => {
  it("refuses an order delivery whose topic header is not the address's topic (fast path)", async () => {
    const wrongAddress = await send("/webhooks/orders/cancelled", { topic: "orders/paid", body: order(41_001) });
    expect(wrongAddress.status).toBe(400);
    const right = await send("/webhooks/orders/paid", { topic: "orders/paid", body: order(41_002) });
    expect(right.status).toBe(200);
    expect((await prisma.job.findMany()).map((j) => j.key)).toEqual([`${TEST_SHOP}:order.record:41002`]);
  });

  it("refuses an orders/paid body replayed to /webhooks/shop/redact for another shop, and deletes nothing", async () => {
    await prisma.orderRecord.create({ data: { shop: OTHER_SHOP, orderId: "41003", status: "recorded" } });
    const asOrder = await send("/webhooks/shop/redact", { topic: "orders/paid", shop: OTHER_SHOP, body: order(41_003) });
    expect(asOrder.status).toBe(400);
    const relabelled = await send("/webhooks/shop/redact", { topic: "shop/redact", shop: OTHER_SHOP, body: order(41_003) });
    expect(relabelled.status).toBe(400);
    const otherShops = await send("/webhooks/shop/redact", { topic: "shop/redact", shop: OTHER_SHOP, body: { shop_id: 954_889, shop_domain: TEST_SHOP } });
    expect(otherShops.status).toBe(400);
    expect(await prisma.orderRecord.count({ where: { shop: OTHER_SHOP } })).toBe(1);

    const own = await send("/webhooks/shop/redact", { topic: "shop/redact", shop: OTHER_SHOP, body: { shop_id: 954_889, shop_domain: OTHER_SHOP } });
    expect(own.status).toBe(200);
    expect(await prisma.orderRecord.count({ where: { shop: OTHER_SHOP } })).toBe(0);
  });

  it("refuses a customers/redact body whose shop_domain is not the delivery's shop", async () => {
    const body = { shop_id: 954_889, shop_domain: TEST_SHOP, customer: { id: 7_210_000_000_017, email: "jon@example.com" }, orders_to_redact: [] };
    const response = await send("/webhooks/customers/redact", { topic: "customers/redact", shop: OTHER_SHOP, body });
    expect(response.status).toBe(400);
    expect(await prisma.redactionLog.count()).toBe(0);
  });
});

describe("stale and doubled deliveries", () => {
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();

  it("refuses a delivery triggered more than a day ago, on the fast path and on a Remix route", async () => {
    expect((await send("/webhooks/orders/paid", { topic: "orders/paid", body: order(42_001), triggeredAt: twoDaysAgo })).status).toBe(400);
    expect(
      (await send("/webhooks/customers/data_request", { topic: "customers/data_request", body: { shop_id: 1, shop_domain: TEST_SHOP, customer: { id: 1 } }, triggeredAt: twoDaysAgo }))
        .status
    ).toBe(400);
    expect((await send("/webhooks/orders/paid", { topic: "orders/paid", body: order(42_002), triggeredAt: new Date(Date.now() - 3 * 3600_000).toISOString() })).status).toBe(200);
    expect((await prisma.job.findMany()).map((j) => j.key)).toEqual([`${TEST_SHOP}:order.record:42002`]);
  });

  it("refuses a repeated X-Shopify-Hmac-Sha256 header", async () => {
    const signed = signedWebhook({ topic: "orders/paid", body: order(42_003) });
    const headers = [...signed.headers.entries()];
    const hmac = signed.headers.get("X-Shopify-Hmac-Sha256")!;
    const body = Buffer.from(await signed.text());
    const twice = await raw("/webhooks/orders/paid", [...headers, ["X-Shopify-Hmac-Sha256", hmac]], body);
    expect(twice.status).toBe(400);
    const remix = signedWebhook({ topic: "app/uninstalled", body: { id: 1 } });
    const remixTwice = await raw("/webhooks/app/uninstalled", [...remix.headers.entries(), ["X-Shopify-Hmac-Sha256", remix.headers.get("X-Shopify-Hmac-Sha256")!]], Buffer.from(await remix.text()));
    // Refused below the app here (Node answers this raw request 400 before Remix sees it); the app's own answer to two signatures is 401 (test/domains/privacy/compliance-signature.test.ts).
    expect(remixTwice.status).toBe(400);
    expect(await prisma.job.count()).toBe(0);
  });
});

describe("body limits", () => {
  const headers = (path: string, extra: [string, string][] = []): [string, string][] => [...shopifyHeaders(path), ...extra];

  it("refuses a declared length over the limit before reading the body", async () => {
    const answer = await raw("/webhooks/orders/paid", headers("/webhooks/orders/paid", [["Content-Length", String(3 * 1024 * 1024)]]), Buffer.from("{"), { end: false });
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(24 * 1024 * 1024);
  });

  it("stops reading a chunked body at the limit and answers 413 at once (fast path, Remix route, service webhooks)", async () => {
    // The fast path writes its answer and lets the socket go 10 s later: the answer always arrives.
    const fast = await raw("/webhooks/orders/paid", headers("/webhooks/orders/paid"), null, { end: false });
    expect(fast.status).toBe(413);
    expect(fast.sent).toBeLessThan(24 * 1024 * 1024);
    const remix = await raw("/webhooks/customers/redact", headers("/webhooks/customers/redact"), null, { end: false });
    expect(remix.status).toBe(413);
    expect(remix.sent).toBeLessThan(24 * 1024 * 1024);
  });

  it("refuses an unknown service endpoint without reading its body", async () => {
    const answer = await raw("/referral-webhooks/no-such-endpoint", [["Content-Type", "application/json"]], null, { end: false });
    expect(answer.status).toBe(404);
    expect(answer.sent).toBeLessThan(24 * 1024 * 1024);
  });
});

describe("cart attributes anyone can set", () => {
  it("takes a referral code or campaign only in the shape codes have, and stores nothing else of it", async () => {
    const long = "A".repeat(5_000);
    const withCode = (id: number, code: string, campaign = "1001") =>
      shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: code }, { name: "_referral_campaign", value: campaign }] });
    const answers = await Promise.all([
      send("/webhooks/orders/paid", { topic: "orders/paid", body: withCode(43_001, long) }),
      send("/webhooks/orders/paid", { topic: "orders/paid", body: withCode(43_002, "<img src=x onerror=alert(1)>") }),
      send("/webhooks/orders/paid", { topic: "orders/paid", body: withCode(43_003, "ALICE10", "x".repeat(1_000)) }),
      send("/webhooks/orders/paid", { topic: "orders/paid", body: withCode(43_004, "ALICE10") }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const records = await prisma.orderRecord.findMany({ orderBy: { orderId: "asc" }, select: { orderId: true, shortCode: true, explanation: true, campaignUids: true } });
    expect(records.map((r) => [r.orderId, r.shortCode])).toEqual([
      ["43001", null],
      ["43002", null],
      ["43003", "ALICE10"],
      ["43004", "ALICE10"],
    ]);
    const stored = JSON.stringify(await Promise.all([prisma.orderRecord.findMany(), prisma.job.findMany()]));
    expect(stored).not.toContain("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    expect(stored).not.toContain("onerror");
    expect(stored).not.toContain("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
  });
});

describe("one bad webhook in a batch", () => {
  it("answers each bad one on its own (never a 5xx for the batch) and stores the good ones delivered with it", async () => {
    expectServedError(/"msg":"malformed webhook payload"/);
    const good = Array.from({ length: 6 }, (_, i) => order(44_000 + i));
    const bad = [
      { ...order(44_100), id: "1,000.00" },
      { ...order(44_101), current_subtotal_price_set: { shop_money: { amount: "99999999999999999999999.99", currency_code: "USD" } } },
      { ...order(44_102), line_items: [{ price: 1e308, quantity: "many" }] },
    ];
    const answers = await Promise.all([...bad, ...good].map((body) => send("/webhooks/orders/paid", { topic: "orders/paid", body })));
    expect(answers.slice(bad.length).map((a) => a.status)).toEqual(good.map(() => 200));
    expect(answers.slice(0, bad.length).map((a) => a.status < 500)).toEqual(bad.map(() => true));
    await expectUnreadable(answers[0]!, /\bid\b/);
    const keys = (await prisma.job.findMany({ select: { key: true } })).map((j) => j.key);
    for (const id of good.map((o) => o.id)) expect(keys).toContain(`${TEST_SHOP}:order.record:${id}`);
  });
});
