import "../entry/admin/browser-env";
import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/wiring/db.server";
import { inheritedEnv, spawnConsumerProcess } from "../../scripts/lib/app-process";
import { createOrderTopic, publishAsShopify, startPubSubEmulator, type PubSubEmulator, type ShopifyMessage } from "../../scripts/lib/pubsub-emulator";
import { repoRoot, startTestAppServer, testAppEnv, type AppServer } from "../entry/admin/app-server";
import { adminRequest } from "../entry/admin/admin-requests";
import { resetDatabase } from "../support/database";
import { deliveriesPlanned } from "../support/kept-deliveries";
import { shopifyOrder, shopifyRefund } from "../support/orders";
import { connectShop, sandboxCommissions, testPipeline, useTestSandbox } from "../support/pipeline";
import { signedWebhook, TEST_SHOP } from "../support/shopify-requests";

// `npm run consume` as production runs it (the built build/consume.mjs, its
// own process) pulling from Google's Pub/Sub emulator, which this file
// starts: orders published as Shopify publishes them reach the intake the
// HTTP path stores through, and each is stored once whatever Pub/Sub
// delivers twice, a consumer killed in the middle of a batch, or the HTTP
// path delivering the same order during a switch-over.

const PROJECT = "referral-bridge-test";
/** The subscriptions' ack deadline: how long the emulator keeps a message leased to a consumer that stopped without settling it. */
const ACK_DEADLINE_S = 10;
const sandbox = useTestSandbox();
let emulator: PubSubEmulator;
let topicCount = 0;
let consumers: { child: ChildProcess; output: () => string }[] = [];

let server: AppServer;

beforeAll(async () => {
  [emulator, server] = await Promise.all([startPubSubEmulator(), startTestAppServer()]);
}, 90_000);

afterAll(async () => {
  await Promise.all([emulator?.stop(), server?.stop()]);
});

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** The address the Shopify admin opens an app page of the served app at, with a fresh session token. */
async function signedUrl(pathname: string): Promise<string> {
  const signed = new URL((await adminRequest(pathname)).url);
  return `${server.origin}${signed.pathname}${signed.search}`;
}

beforeEach(async () => {
  await resetDatabase();
  await connectShop(sandbox);
});

afterEach(async () => {
  await Promise.all(consumers.map(({ child }) => kill(child, "SIGKILL")));
  consumers = [];
});

/** A fresh topic and subscription for a test (the emulator keeps them for the file). */
async function orderTopic() {
  return createOrderTopic(emulator.client(PROJECT), `shopify-orders-${++topicCount}`, { ackDeadlineSeconds: ACK_DEADLINE_S });
}

/** `npm run consume` on this test's database, pulling `subscription` from the emulator, as a production process. */
function startConsumer(subscription: string, extra: Record<string, string> = {}) {
  let output = "";
  const child = spawnConsumerProcess({
    cwd: repoRoot,
    env: {
      ...inheritedEnv(),
      ...testAppEnv(),
      ...emulator.env,
      NODE_ENV: "production",
      SHOPIFY_APP_URL: "https://referral-bridge.example.net",
      PUBSUB_SUBSCRIPTION: subscription,
      LOG_LEVEL: "info",
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const consumer = { child, output: () => output };
  consumers.push(consumer);
  return consumer;
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill(signal);
  });
}

/** Waits until `done` holds (the consumer has stored what it should), saying what was last seen when it does not. */
async function until(what: string, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) {
      const seen = { orders: await prisma.orderRecord.count(), jobs: await prisma.job.count(), kept: await prisma.pendingDelivery.count() };
      throw new Error(`${what}: not within ${timeoutMs / 1000} s (${JSON.stringify(seen)}); the consumers said:\n${consumers.map((c) => c.output()).join("\n---\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The messages still on a subscription (not acknowledged), pulled through the emulator's REST API and handed back.
 * `atLeast`: pulls again while fewer came, for up to the ack deadline and 5 s more. A consumer handing back a message
 * over and over (a shop without the app) can be sent it once more as it stops; that message stays leased to the
 * closed stream until its ack deadline runs out (seen here: back after 9.8 s with a 10 s deadline).
 */
async function leftOn(subscription: string, atLeast = 0): Promise<{ topic: string; shop: string; data: string }[]> {
  const call = async (verb: string, body: unknown) => {
    const response = await fetch(`http://${emulator.host}/v1/${subscription}:${verb}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${verb}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ receivedMessages?: { ackId: string; message: { attributes?: Record<string, string>; data?: string } }[] }>;
  };
  let received: NonNullable<Awaited<ReturnType<typeof call>>["receivedMessages"]> = [];
  for (const until = Date.now() + (atLeast > 0 ? ACK_DEADLINE_S * 1_000 : 0) + 5_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    received = [...received, ...((await call("pull", { maxMessages: 1_000, returnImmediately: true })).receivedMessages ?? [])];
    if (received.length >= atLeast || Date.now() > until) break;
  }
  if (received.length > 0) await call("modifyAckDeadline", { ackIds: received.map((m) => m.ackId), ackDeadlineSeconds: 0 });
  return received.map(({ message }) => ({
    topic: message.attributes?.["X-Shopify-Topic"] ?? "",
    shop: message.attributes?.["X-Shopify-Shop-Domain"] ?? "",
    data: Buffer.from(message.data ?? "", "base64").toString(),
  }));
}

const referred = (id: bigint) => shopifyOrder({ id, email: `pubsub-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
const paid = (id: bigint, shop = TEST_SHOP): ShopifyMessage => ({ topic: "orders/paid", shop, body: JSON.stringify(referred(id)), webhookId: `wh-${id}` });
const storedOrders = (prefix: string) => prisma.orderRecord.count({ where: { shop: TEST_SHOP, orderId: { startsWith: prefix } } });

describe("npm run consume against the Pub/Sub emulator", () => {
  it("stores each real-shaped order once though Pub/Sub delivers it twice, acknowledges them, and each is recorded once at the service", async () => {
    const { topic, subscription } = await orderTopic();
    // GIVEN 40 paid orders and a refund (64-bit ids), each published twice as Shopify publishes it (a second delivery has its own webhook id)
    const ids = Array.from({ length: 40 }, (_, i) => 7_205_817_436_110_200_000n + BigInt(i));
    const refund: ShopifyMessage = { topic: "refunds/create", shop: TEST_SHOP, body: JSON.stringify(shopifyRefund(ids[0]!, ["10.00"], 7_205_817_436_110_299_999n)) };
    const once = [...ids.map((id) => paid(id)), refund];
    await publishAsShopify(topic, [...once, ...once.map((message) => ({ ...message, webhookId: `again-${message.webhookId ?? "refund"}` }))]);

    // WHEN the consumer pulls them and stops (SIGTERM)
    const consumer = startConsumer(subscription);
    await until("40 orders stored", async () => (await storedOrders("72058174361102")) === 40 && (await prisma.job.count({ where: { kind: "order.refund" } })) === 1);
    await deliveriesPlanned();
    expect(await kill(consumer.child, "SIGTERM"), consumer.output()).toBe(0);

    // THEN each order has one record and one job, the refund one job, and nothing is left on the subscription
    expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(40);
    expect(await prisma.job.count()).toBe(41);
    expect(await leftOn(subscription)).toEqual([]);
    // AND the jobs record each order once at the service, under its exact id
    await testPipeline().drain();
    for (const id of [ids[0]!, ids[39]!]) expect(await sandboxCommissions(sandbox, id.toString()), id.toString()).toHaveLength(1);
  }, 90_000);

  it("stores every order exactly once when the consumer is killed (SIGKILL) in the middle of a batch and started again", async () => {
    const { topic, subscription } = await orderTopic();
    // GIVEN 600 orders published, pulled 25 at a time
    const ids = Array.from({ length: 600 }, (_, i) => 7_205_817_436_110_300_000n + BigInt(i));
    await publishAsShopify(topic, ids.map((id) => paid(id)));
    const first = startConsumer(subscription, { PUBSUB_MAX_MESSAGES: "25" });

    // WHEN it is killed once it has stored some, not all
    await until("some orders stored", async () => (await storedOrders("72058174361103")) > 0, 60_000);
    await kill(first.child, "SIGKILL");
    await deliveriesPlanned().catch(() => undefined);
    const storedAtKill = await storedOrders("72058174361103");
    expect(storedAtKill, "the consumer was killed after it had stored everything: the test proves nothing").toBeLessThan(600);

    // AND a new consumer takes over: what the first held unacknowledged comes back when its lease runs out (about 35 s here)
    const second = startConsumer(subscription, { PUBSUB_MAX_MESSAGES: "25" });
    await until("600 orders stored", async () => (await storedOrders("72058174361103")) === 600, 120_000);
    await deliveriesPlanned();
    expect(await kill(second.child, "SIGTERM"), second.output()).toBe(0);

    // THEN every order is stored exactly once, with one job, and nothing is left to deliver
    expect(await prisma.orderRecord.count()).toBe(600);
    expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(600);
    expect(await leftOn(subscription)).toEqual([]);
  }, 200_000);

  it("acknowledges a malformed message and a topic the app does not take, shows the shop's merchant its unreadable orders, and hands back one for a shop without the app until it installs", async () => {
    const { topic, subscription } = await orderTopic();
    const stranger = "not-installed-yet.myshopify.com";
    // GIVEN a body that is no JSON, an order with a field the intake cannot read, a product update, an order of a shop without the app, and a sound order
    await publishAsShopify(topic, [
      { topic: "orders/paid", shop: TEST_SHOP, body: '{"id": 7205817436110400001, "email": ' },
      { topic: "orders/paid", shop: TEST_SHOP, body: JSON.stringify({ ...referred(7_205_817_436_110_400_002n), line_items: "many" }) },
      { topic: "products/update", shop: TEST_SHOP, body: JSON.stringify({ id: 7_205_817_436_110_400_003n.toString(), title: "Socks" }) },
      paid(7_205_817_436_110_400_004n, stranger),
      paid(7_205_817_436_110_400_005n),
    ]);

    // WHEN the consumer has taken the sound order and stops
    const consumer = startConsumer(subscription);
    await until("the sound order stored", async () => (await storedOrders("7205817436110400005")) === 1);
    await deliveriesPlanned();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await kill(consumer.child, "SIGTERM"), consumer.output()).toBe(0);

    // THEN only the sound order is stored; the refusals are logged saying why
    expect(await prisma.orderRecord.findMany({ select: { orderId: true } })).toEqual([{ orderId: "7205817436110400005" }]);
    expect(consumer.output()).toMatch(/the body is not JSON/);
    expect(consumer.output()).toMatch(/line_items: expected a list/);
    expect(consumer.output()).toMatch(/not an order topic: products\/update/);
    // AND the Overview of the served app tells the merchant of the two orders that could not be read, and why (not of the product update)
    const overview = await (await fetch(await signedUrl("/app"), { headers: { "User-Agent": BROWSER } })).text();
    expect(overview).toContain("2 order updates from Shopify couldn&#x27;t be read in the last 7 days");
    expect(overview).toMatch(/Those orders were not recorded. The latest \(orders\/paid, [^)]+\): (the body is not JSON|line_items: expected a list)/);
    // AND only the order of the shop without the app is still on the subscription, to be delivered again
    expect(await leftOn(subscription, 1)).toEqual([{ topic: "orders/paid", shop: stranger, data: expect.stringContaining("7205817436110400004") }]);

    // WHEN the shop installs the app and a consumer runs again THEN its order is stored and acknowledged
    await connectShop(sandbox, { shop: stranger });
    const again = startConsumer(subscription);
    await until("the new shop's order stored", async () => (await prisma.orderRecord.count({ where: { shop: stranger } })) === 1);
    await deliveriesPlanned();
    expect(await kill(again.child, "SIGTERM"), again.output()).toBe(0);
    expect(await leftOn(subscription)).toEqual([]);
  }, 90_000);

  describe("switching over from HTTP", () => {
    it("stores an order once when it comes both by HTTP and by Pub/Sub", async () => {
      const { topic, subscription } = await orderTopic();
      // GIVEN orders delivered to the served app over HTTP, signed, while Shopify starts publishing the same to Pub/Sub
      const ids = Array.from({ length: 20 }, (_, i) => 7_205_817_436_110_500_000n + BigInt(i));
      const consumer = startConsumer(subscription);
      const [answers] = await Promise.all([
        Promise.all(ids.slice(0, 15).map((id) => fetch(signedWebhook({ topic: "orders/paid", body: referred(id), url: `${server.origin}/webhooks/orders/paid` })))),
        // Shopify's Pub/Sub delivery of the same event has a webhook id of its own.
        publishAsShopify(topic, ids.slice(5).map((id) => ({ ...paid(id), webhookId: `pubsub-${id}` }))),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual(ids.slice(0, 15).map(() => 200));

      // WHEN both have stored what they got
      await until("20 orders stored", async () => (await storedOrders("72058174361105")) === 20);
      await deliveriesPlanned();
      expect(await kill(consumer.child, "SIGTERM"), consumer.output()).toBe(0);

      // THEN each order is stored once, with one job, whichever path brought it first
      expect(await prisma.orderRecord.count()).toBe(20);
      expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(20);
      expect(await leftOn(subscription)).toEqual([]);
    }, 90_000);
  });
});
