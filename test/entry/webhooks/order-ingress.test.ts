import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { orderedId } from "../../../app/platform/intake/intake-batch";
import type { IntakeStore } from "../../../app/platform/intake/intake-store.server";
import { intakeOver, intakeStoreFor } from "../../../app/wiring/order-intake.server";
import { serveOrderWebhook } from "../../../app/wiring/order-intake.server";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { resetDatabase } from "../../support/database";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned, expectUnreadable, plannedStore } from "../../support/kept-deliveries";

const quiet = createLogger({ level: "silent" });
const referred = (id: number) => shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
const hook = (payload: unknown, topic = "ORDERS_PAID") => ({ topic, shop: TEST_SHOP, payload, webhookId: null, triggeredAt: null });

/** The app's store, counting its commits (and failing them on demand). */
function observedStore() {
  const inner = plannedStore(intakeStoreFor(process.env.DATABASE_URL!));
  const commits: number[] = [];
  let failNext = false;
  const store: IntakeStore = {
    async intake(hooks) {
      if (failNext) {
        failNext = false;
        throw new Error("disk full");
      }
      commits.push(hooks.length);
      return inner.intake(hooks);
    },
    ready: () => inner.ready(),
    onPlanned: (listener) => inner.onPlanned(listener),
    close: () => inner.close(),
  };
  return { store, commits, failNextCommit: () => (failNext = true) };
}

describe("order webhook intake (group commit)", () => {
  beforeEach(async () => {
    await resetDatabase();
    await installShop();
  });

  it("stores webhooks that arrive together in one commit, each answered with its own outcome", async () => {
    const { store, commits } = observedStore();
    const intake = intakeOver(store, quiet);
    const results = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => intake.store(hook(referred(11_000 + i)))),
      intake.store(hook(shopifyOrder({ id: 11_100 }))),
      intake.store(hook({ name: "not an order" })),
      intake.store(hook({ id: 11_000 }, "ORDERS_CANCELLED")),
    ]);
    expect(commits).toEqual([43]);
    expect(results.slice(0, 40).every((r) => r.outcome === "queued")).toBe(true);
    expect(results[40]).toMatchObject({ outcome: "awaiting_signal" });
    expect(results[41]).toMatchObject({ outcome: "malformed" });
    expect(results[42]).toEqual({ outcome: "queued", detail: undefined });
    // 40 recordings, a cancellation, and the shop's pixel sweep that ends the wait of the order with no code
    expect(await prisma.job.count()).toBe(42);
    expect(await prisma.orderRecord.count()).toBe(41);
    await store.close();
  });

  it("counts a repeated delivery once, in the same batch or a later one", async () => {
    const { store } = observedStore();
    const intake = intakeOver(store, quiet);
    const order = referred(12_000);
    const together = await Promise.all([intake.store(hook(order)), intake.store(hook(order)), intake.store(hook(order))]);
    expect(together.map((r) => r.outcome).sort()).toEqual(["duplicate", "duplicate", "queued"]);
    expect((await intake.store(hook(order))).outcome).toBe("duplicate");
    expect(await prisma.job.count()).toBe(1);
    expect(await prisma.orderRecord.count()).toBe(1);
    await store.close();
  });

  it("queues nothing for a shop without a session", async () => {
    await prisma.session.deleteMany();
    const { store } = observedStore();
    const result = await intakeOver(store, quiet).store(hook(referred(13_000)));
    expect(result.outcome).toBe("no_session");
    expect(await prisma.job.count()).toBe(0);
    await store.close();
  });

  it("fails the whole batch when its commit fails, stores none of it, and goes on with the next", async () => {
    const { store, failNextCommit } = observedStore();
    const intake = intakeOver(store, quiet);
    failNextCommit();
    const failed = await Promise.allSettled([intake.store(hook(referred(14_000))), intake.store(hook(referred(14_001)))]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await prisma.job.count()).toBe(0);
    expect((await intake.store(hook(referred(14_000)))).outcome).toBe("queued");
    await store.close();
  });

  it("waits for a write transaction of this same process (SQLite holds one write lock) without stopping the event loop", async () => {
    const sqlite = process.env.DATABASE_URL!.startsWith("file:");
    const { store, commits } = observedStore();
    const intake = intakeOver(store, quiet);
    let accepted = false;
    await prisma.$transaction(async (tx) => {
      await tx.session.update({ where: { id: `offline_${TEST_SHOP}` }, data: { state: "busy" } });
      const pending = intake.store(hook(referred(15_000))).then((r) => {
        accepted = true;
        return r;
      });
      // The intake hands the webhook to its store, whose commit meets this transaction's lock on SQLite:
      // meanwhile this event loop keeps turning (the poll's timers fire, and the transaction queries again).
      await expect.poll(() => commits.length, { timeout: 5_000 }).toBe(1);
      await tx.session.findUniqueOrThrow({ where: { id: `offline_${TEST_SHOP}` } });
      // PostgreSQL locks rows, so there the webhook is stored while the transaction is open.
      if (sqlite) expect(accepted).toBe(false);
      else await expect.poll(() => accepted, { timeout: 5_000 }).toBe(true);
      void pending;
    });
    await expect.poll(() => accepted, { timeout: 5_000 }).toBe(true);
    expect(await prisma.job.count()).toBe(1);
    await store.close();
  });
});

describe("row ids", () => {
  it("sort in the order they were made and never repeat", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => orderedId(1_790_000_000_000 + Math.floor(i / 10)));
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe("the production server's shortcut for order webhooks", () => {
  let server: Server;
  let base: string;

  beforeEach(async () => {
    await resetDatabase();
    await installShop();
    server = createServer((req, res) => {
      if (req.method === "POST" && serveOrderWebhook(req, res)) return;
      res.writeHead(404).end("not an order webhook");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (request: Request) => fetch(request);

  it("stores a signed order webhook and answers 200", async () => {
    const response = await post(signedWebhook({ topic: "orders/paid", body: referred(16_000), url: `${base}/webhooks/orders/paid`, webhookId: "wh-16000" }));
    expect(response.status).toBe(200);
    await deliveriesPlanned();
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ key: `${TEST_SHOP}:order.record:16000`, webhookId: "wh-16000" });
  });

  it("refuses a forged one with 401 and stores nothing", async () => {
    const response = await post(signedWebhook({ topic: "orders/paid", body: referred(16_001), url: `${base}/webhooks/orders/paid`, secret: "nope" }));
    expect(response.status).toBe(401);
    expect(await prisma.job.count()).toBe(0);
  });

  it("refuses a signed body that is not JSON, saying why, and stores nothing", async () => {
    const raw = "{not json";
    const headers = new Headers(signedWebhook({ topic: "orders/paid", body: {} }).headers);
    headers.set("X-Shopify-Hmac-Sha256", getHmac(raw, process.env.SHOPIFY_API_SECRET!));
    const response = await fetch(`${base}/webhooks/orders/paid`, { method: "POST", headers, body: raw });
    await expectUnreadable(response, /^Malformed payload: the body is not JSON$/);
    expect(await prisma.job.count()).toBe(0);
  });

  it("queues a cancellation and a refund at their own paths", async () => {
    expect((await post(signedWebhook({ topic: "orders/cancelled", body: { id: 16_002 }, url: `${base}/webhooks/orders/cancelled` }))).status).toBe(200);
    await deliveriesPlanned();
    expect(await prisma.job.count({ where: { kind: "order.cancel" } })).toBe(1);
  });

  it("leaves every other request to the next handler (Remix)", async () => {
    const response = await fetch(`${base}/webhooks/app/uninstalled`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("not an order webhook");
  });
});
