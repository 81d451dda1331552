import { expectServedError } from "../../support/served-output";
import "../../entry/admin/browser-env";
import Database from "better-sqlite3";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { afterEach, beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { inThisThread, sqliteIntakeStore as storeWith, type IntakeHost, type SqliteIntakeOptions } from "../../../app/platform/intake/intake-store.server";
import { RawJson } from "../../../app/platform/intake/planner";
import { INTAKE_PLANNER, intakeThread } from "../../../app/wiring/intake-planner";
import { parseShopifyJson } from "../../../app/platform/text/lossless-json";
import { WebhooksAnswering } from "../../../app/platform/threads/webhooks-answering";
import { startAppServer, startTestAppServer, testAppEnv, type AppServer } from "../../entry/admin/app-server";
import { resetDatabase, testDatabaseKind } from "../../support/database";
import { deliveriesPlanned } from "../../support/kept-deliveries";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

// On SQLite the served build answers an order webhook once it has kept the
// delivery as it came, and plans it a moment later (decision 022). What a
// process kept and did not plan (killed before it could) is planned by the
// next process as it starts, once: its rows are as a webhook's would be.

const onSqlite = testDatabaseKind() === "sqlite";
let server: AppServer | undefined;

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

afterEach(() => server?.stop());

/** Past 2^53: a JavaScript number would round it. */
const ORDER = 7_340_312_345_678_905_001n;
const TRIGGERED_AT = new Date(Date.now() - 60_000);
const referred = shopifyOrder({ id: ORDER, email: "buyer@example.com", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });

/** A SQLite store with the app's planner, and its thread of its own. */
const sqliteIntakeStore = (path: string, options: Partial<SqliteIntakeOptions> = {}) => storeWith(path, { planner: INTAKE_PLANNER, thread: intakeThread(), ...options });

/** The SQLite file of this test's database. */
const databasePath = () => process.env.DATABASE_URL!.slice("file:".length);
const referredOrder = (id: bigint) => shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
/** A trigger time no clock reads: storing the delivery's job fails, on it alone (a stand-in for any delivery the planning does not survive). */
const unplannable = (row: { id: number }) => prisma.$executeRawUnsafe(`UPDATE "PendingDelivery" SET "triggeredAt" = 'not a time' WHERE "id" = ?`, row.id);

/** A delivery as the intake keeps it, left behind by a process that stopped before planning it. */
const keptRow = (topic: string, body: string, webhookId: string) =>
  prisma.pendingDelivery.create({ data: { shop: TEST_SHOP, topic, webhookId, triggeredAt: TRIGGERED_AT, body: Buffer.from(body) } });

it.runIf(onSqlite)("plans what a killed process kept when the next one starts, once, and logs what it could not read", async () => {
  expectServedError(/"msg":"malformed webhook payload"/);
  await keptRow("ORDERS_PAID", JSON.stringify(referred), "wh-kept-1");
  await keptRow("ORDERS_PAID", "{not json", "wh-kept-2");

  server = await startTestAppServer();
  await deliveriesPlanned();

  const record = await prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId: String(ORDER) } });
  expect(record).toMatchObject({ status: "queued", shortCode: "ALICE10", email: "buyer@example.com" });
  const job = await prisma.job.findFirstOrThrow({ where: { key: `${TEST_SHOP}:order.record:${ORDER}` } });
  expect(job).toMatchObject({ status: "queued", webhookId: "wh-kept-1" });
  expect(job.triggeredAt?.toISOString()).toBe(TRIGGERED_AT.toISOString());
  await expect.poll(() => server!.output()).toMatch(/"webhookId":"wh-kept-2".*the body is not JSON|the body is not JSON.*"webhookId":"wh-kept-2"/);

  // Shopify delivers the same order again: a repeat of what was planned.
  const again = await fetch(signedWebhook({ topic: "orders/paid", body: referred, webhookId: "wh-kept-3", url: `${server.origin}/webhooks/orders/paid` }));
  expect(again.status).toBe(200);
  await deliveriesPlanned();
  expect(await prisma.orderRecord.count()).toBe(1);
  expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(1);
}, 60_000);

it.runIf(onSqlite)("sets aside a kept delivery whose planning fails on it alone, plans the ones after it, and plans it again at the next start", async () => {
  expectServedError(/could not be planned; set aside|"msg":"malformed webhook payload"/);
  const other = shopifyOrder({ id: ORDER + 1n, email: "friend@example.com", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
  const bad = await keptRow("ORDERS_PAID", JSON.stringify(referred), "wh-kept-bad");
  await keptRow("ORDERS_PAID", JSON.stringify(other), "wh-kept-good");
  await unplannable(bad);

  server = await startTestAppServer();
  await deliveriesPlanned();
  // The delivery after it was not held up.
  expect(await prisma.orderRecord.findFirst({ where: { orderId: String(ORDER + 1n) } })).toMatchObject({ status: "queued" });
  expect(await prisma.orderRecord.findFirst({ where: { orderId: String(ORDER) } })).toBeNull();
  const setAside = await prisma.pendingDelivery.findMany({ select: { webhookId: true, failure: true } });
  expect(setAside).toEqual([{ webhookId: "wh-kept-bad", failure: expect.stringMatching(/Invalid time value/) }]);
  await expect.poll(() => server!.output()).toMatch(/"webhookId":"wh-kept-bad".*could not be planned; set aside/);

  // A fix (here, of the row itself) and a restart: the delivery is planned.
  expect(await server.terminate()).toBe(0);
  await prisma.$executeRawUnsafe(`UPDATE "PendingDelivery" SET "triggeredAt" = ? WHERE "id" = ?`, TRIGGERED_AT.toISOString(), bad.id);
  server = await startTestAppServer();
  await deliveriesPlanned();
  expect(await prisma.pendingDelivery.count()).toBe(0);
  expect(await prisma.orderRecord.findFirst({ where: { orderId: String(ORDER) } })).toMatchObject({ status: "queued" });
  expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(2);
}, 90_000);

it.runIf(onSqlite)("sets none aside when every kept delivery fails the same way, and starts all the same", async () => {
  // A "set aside" line per delivery is written too; what the title promises is held below: no row keeps a failure.
  expectServedError(/could not plan the order webhooks kept for later|"msg":"malformed webhook payload"|could not be planned; set aside/);
  // A failure no delivery of the chunk escapes is not one delivery's (a bug every payload meets): planning waits and tries again.
  for (const webhookId of ["wh-kept-bad-1", "wh-kept-bad-2"]) {
    const row = await keptRow("ORDERS_PAID", JSON.stringify(referred), webhookId);
    await unplannable(row);
  }
  // One that stores nothing is no sign that the planning works.
  await keptRow("ORDERS_PAID", "{not json", "wh-kept-unreadable");
  server = await startTestAppServer();
  await expect.poll(() => server!.output()).toMatch(/could not plan the order webhooks kept for later.*Invalid time value|Invalid time value.*could not plan the order webhooks kept for later/);
  await expect.poll(() => server!.output()).toMatch(/"webhookId":"wh-kept-unreadable".*the body is not JSON|the body is not JSON.*"webhookId":"wh-kept-unreadable"/);
  expect(await prisma.pendingDelivery.findMany({ select: { webhookId: true, failure: true } })).toEqual([
    { webhookId: "wh-kept-bad-1", failure: null },
    { webhookId: "wh-kept-bad-2", failure: null },
  ]);
  // The app answers meanwhile.
  const answer = await fetch(signedWebhook({ topic: "orders/paid", body: shopifyOrder({ id: ORDER + 7n }), url: `${server.origin}/webhooks/orders/paid` }));
  expect(answer.status).toBe(200);
}, 60_000);

it.runIf(onSqlite).each([
  { intake: "in a thread of its own", WORKER_IN_PROCESS: "false" },
  { intake: "in the job worker's thread", WORKER_IN_PROCESS: "true" },
])("leaves nothing kept once it has stopped, and every order answered 200 stored: the intake $intake", async ({ WORKER_IN_PROCESS }) => {
  server = await startAppServer({ ...testAppEnv(), WORKER_IN_PROCESS });
  const ids = Array.from({ length: 50 }, (_, i) => ORDER + BigInt(i + 1));
  const answers = await Promise.all(
    ids.map((id) => fetch(signedWebhook({ topic: "orders/paid", body: referredOrder(id), url: `${server!.origin}/webhooks/orders/paid` }))),
  );
  expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
  await deliveriesPlanned();
  // Kept after the intake last planned (by a process that was killed, say): no batch comes after it, so only the stop plans it.
  await keptRow("ORDERS_PAID", JSON.stringify(referred), "wh-kept-before-stop");
  expect(await server.terminate()).toBe(0);
  expect(await prisma.pendingDelivery.count()).toBe(0);
  expect(await prisma.orderRecord.count()).toBe(ids.length + 1);
  expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(ids.length + 1);
}, 60_000);

const delivered = { shop: TEST_SHOP, topic: "ORDERS_PAID", webhookId: "wh-kept-4", triggeredAt: TRIGGERED_AT, payload: new RawJson(Buffer.from(JSON.stringify(referred))) };
const read = () => ({ shop: TEST_SHOP, topic: "ORDERS_PAID", webhookId: null, triggeredAt: null, payload: parseShopifyJson(JSON.stringify(referred)), arrivedBy: "reconciliation" as const });

it.runIf(onSqlite)("reads a delivery before it keeps it: one it cannot read is answered malformed, naming the field, and not kept", async () => {
  const webhooks = sqliteIntakeStore(databasePath(), { host: inThisThread });
  const answering = new WebhooksAnswering();
  try {
    // A burst under way: what is kept stays kept (not planned) while the test looks.
    for (let i = 0; i < 8; i++) answering.begin();
    const { id: _noId, ...withoutId } = referred;
    const unreadable = { ...delivered, webhookId: "wh-no-id", payload: new RawJson(Buffer.from(JSON.stringify(withoutId))) };
    expect(await webhooks.intake([unreadable, delivered])).toEqual([{ outcome: "malformed", detail: "id: expected an id, received nothing" }, { outcome: "accepted" }]);
    expect(await prisma.pendingDelivery.findMany({ select: { webhookId: true } })).toEqual([{ webhookId: delivered.webhookId }]);
  } finally {
    while (answering.count() > 0) answering.end();
    await webhooks.close();
  }
});

it.runIf(onSqlite)("an order read from the Admin API waits for the webhooks' store to plan the webhook kept before it, so the order counts as delivered", async () => {
  const path = databasePath();
  const webhooks = sqliteIntakeStore(path);
  // As the app serves it: in the thread of the job that reads the orders.
  const readOrders = sqliteIntakeStore(path, { plansKept: false, host: inThisThread });
  const answering = new WebhooksAnswering();
  const burst = 8;
  try {
    const reported: string[] = [];
    webhooks.onPlanned((planned) => reported.push(...planned.map((p) => `${p.webhookId}:${p.result.outcome}`)));
    readOrders.onPlanned((planned) => reported.push(...planned.map((p) => `read:${p.webhookId}:${p.result.outcome}`)));
    // A burst under way: the webhooks' store holds its planning.
    for (let i = 0; i < burst; i++) answering.begin();
    expect(await webhooks.intake([delivered])).toEqual([{ outcome: "accepted" }]);
    let stored: unknown;
    const reading = readOrders.intake([read()]).then((results) => (stored = results));
    // The store takes up its requests as they come, each as far as its first wait: once a later (empty) one is
    // answered, the read has been taken up, and is waiting rather than not yet begun.
    expect(await readOrders.intake([])).toEqual([]);
    // The reads' store has not planned the kept webhook itself: it waits.
    expect(stored).toBeUndefined();
    expect(await prisma.pendingDelivery.count()).toBe(1);

    for (let i = 0; i < burst; i++) answering.end();
    await reading;
    expect(stored).toEqual([{ outcome: "duplicate" }]);
    expect(reported).toEqual(["wh-kept-4:queued"]);
    expect(await prisma.pendingDelivery.count()).toBe(0);
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderId: String(ORDER) } })).toMatchObject({ arrivedBy: null, status: "queued" });
  } finally {
    while (answering.count() > 0) answering.end();
    await webhooks.close();
    await readOrders.close();
  }
});

it.runIf(onSqlite)("an order read from the Admin API plans a kept webhook itself when no store has planned it in time", async () => {
  const path = databasePath();
  // Neither plans in the background: what the first keeps waits for the second's batch, 200 ms at most.
  const webhooks = sqliteIntakeStore(path, { plansKept: false });
  const readOrders = sqliteIntakeStore(path, { plansKept: false, keptWaitMs: 200, host: inThisThread });
  try {
    expect(await webhooks.intake([delivered])).toEqual([{ outcome: "accepted" }]);
    expect(await prisma.pendingDelivery.count()).toBe(1);

    const reported: string[] = [];
    readOrders.onPlanned((planned) => reported.push(...planned.map((p) => `${p.webhookId}:${p.result.outcome}`)));
    expect(await readOrders.intake([read()])).toEqual([{ outcome: "duplicate" }]);
    expect(reported).toEqual(["wh-kept-4:queued"]);
    expect(await prisma.pendingDelivery.count()).toBe(0);
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderId: String(ORDER) } })).toMatchObject({ arrivedBy: null, status: "queued" });
  } finally {
    await webhooks.close();
    await readOrders.close();
  }
});

it.runIf(onSqlite)("an order read from the Admin API is stored even when a kept delivery cannot be planned yet", async () => {
  const path = databasePath();
  const failures: string[] = [];
  const readOrders = sqliteIntakeStore(path, { plansKept: false, keptWaitMs: 200, planningFailed: (message) => failures.push(message), host: inThisThread });
  try {
    const bad = await keptRow("ORDERS_PAID", JSON.stringify(referred), "wh-kept-alone");
    await unplannable(bad);
    const found = shopifyOrder({ id: ORDER + 9n, email: "found@example.com", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    const readFound = { shop: TEST_SHOP, topic: "ORDERS_PAID", webhookId: null, triggeredAt: null, payload: parseShopifyJson(JSON.stringify(found)), arrivedBy: "reconciliation" as const };

    expect(await readOrders.intake([readFound])).toEqual([{ outcome: "queued" }]);
    expect(failures.join("\n")).toMatch(/Invalid time value/);
    expect(await prisma.pendingDelivery.count({ where: { failure: null } })).toBe(1);
  } finally {
    await readOrders.close(0);
  }
});

it.runIf(onSqlite)("a database that cannot take writes while kept deliveries are planned sets none aside, and they are planned once it can", async () => {
  const path = databasePath();
  const failures: { message: string; at: number }[] = [];
  const webhooks = sqliteIntakeStore(path, { lockWaitMs: 500, planningFailed: (message) => failures.push({ message, at: performance.now() }) });
  const answering = new WebhooksAnswering();
  // Another process's write transaction (a second app process, a migration) holds SQLite's lock.
  const otherProcess = new Database(path);
  try {
    // Kept during a burst, so that nothing is planned before the lock is taken.
    for (let i = 0; i < 8; i++) answering.begin();
    const orders = Array.from({ length: 6 }, (_, i) => referredOrder(ORDER + BigInt(20 + i)));
    const hooks = orders.map((order, i) => ({ ...delivered, webhookId: `wh-busy-${i}`, payload: new RawJson(Buffer.from(JSON.stringify(order))) }));
    expect(await webhooks.intake(hooks)).toEqual(hooks.map(() => ({ outcome: "accepted" })));
    otherProcess.exec("BEGIN IMMEDIATE");
    const burstOver = performance.now();
    for (let i = 0; i < 8; i++) answering.end();

    await expect.poll(() => failures.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(failures[0]!.message).toMatch(/database is locked/);
    // One try of the whole chunk (half a second's wait for the lock), not the chunk in halves down to single deliveries, each waiting as long.
    expect(failures[0]!.at - burstOver).toBeLessThan(3_000);
    expect(await prisma.pendingDelivery.findMany({ select: { failure: true } })).toEqual(hooks.map(() => ({ failure: null })));

    otherProcess.exec("ROLLBACK");
    // Tried again within RETRY_MS (5 s): every delivery planned, once.
    await expect.poll(() => prisma.pendingDelivery.count(), { timeout: 15_000, interval: 100 }).toBe(0);
    expect(await prisma.orderRecord.count()).toBe(orders.length);
    expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(orders.length);
  } finally {
    while (answering.count() > 0) answering.end();
    if (otherProcess.inTransaction) otherProcess.exec("ROLLBACK");
    otherProcess.close();
    await webhooks.close();
  }
}, 30_000);

it.runIf(onSqlite)("a chunk no delivery of which could be stored is tried again whole, not in halves once more", async () => {
  const path = databasePath();
  for (let i = 0; i < 8; i++) {
    const row = await keptRow("ORDERS_PAID", JSON.stringify(referredOrder(ORDER + BigInt(40 + i))), `wh-every-bad-${i}`);
    await unplannable(row);
  }
  // The intake thread counts its statements in this directory (db/statement-counts.ts), read from its environment as it starts.
  const counted = mkdtempSync(join(tmpdir(), "intake-counts-"));
  const failures: string[] = [];
  process.env.DB_STATEMENT_COUNTS_DIR = counted;
  let webhooks: ReturnType<typeof sqliteIntakeStore>;
  try {
    webhooks = sqliteIntakeStore(path, { planningFailed: (message) => failures.push(message) });
  } finally {
    delete process.env.DB_STATEMENT_COUNTS_DIR;
  }
  const readCounts = () =>
    readdirSync(counted).reduce((sum, file) => sum + ((JSON.parse(readFileSync(join(counted, file), "utf8")) as { counts: { intake?: number } }).counts.intake ?? 0), 0);
  /** The thread's count once written (ten times a second, when it changed): the same in two reads 300 ms apart. */
  const statements = async () => {
    for (let last = -1; ; ) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = readCounts();
      if (now === last) return now;
      last = now;
    }
  };
  try {
    // Warming up, it plans what is kept: the chunk, then its halves, down to single deliveries; none can be stored.
    await webhooks.ready();
    expect(failures).toHaveLength(1);
    const first = await statements();
    // Tried again after RETRY_MS (5 s).
    await expect.poll(() => failures.length, { timeout: 15_000, interval: 100 }).toBe(2);
    const retry = (await statements()) - first;
    expect(failures[1]).toMatch(/Invalid time value/);
    // The whole chunk's one try (3 statements), not its 15 tries again, halves down to single deliveries (31).
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThan(first / 4);
    expect(await prisma.pendingDelivery.count({ where: { failure: null } })).toBe(8);

    // A delivery that can be planned joins the chunk: it is planned apart again, the good one stored and the others set aside.
    const good = { ...delivered, webhookId: "wh-every-good", payload: new RawJson(Buffer.from(JSON.stringify(referred))) };
    expect(await webhooks.intake([good])).toEqual([{ outcome: "accepted" }]);
    await expect.poll(() => prisma.pendingDelivery.count({ where: { failure: null } }), { timeout: 15_000, interval: 100 }).toBe(0);
    expect(await prisma.pendingDelivery.count()).toBe(8);
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderId: String(ORDER) } })).toMatchObject({ status: "queued" });
  } finally {
    await webhooks.close(0);
    rmSync(counted, { recursive: true, force: true });
  }
}, 30_000);

it.runIf(onSqlite)("a chunk none of which could be stored is planned apart again once its whole try fails in another way, and its one bad delivery set aside", async () => {
  const path = databasePath();
  const orders = [1n, 2n, 3n].map((n) => referredOrder(ORDER + 60n + n));
  for (const [i, order] of orders.entries()) await keptRow("ORDERS_PAID", JSON.stringify(order), `wh-shared-${i}`);
  // A cause every delivery meets (a stand-in for a bug, or a table another process is changing) and, beside it, one bad delivery of its own.
  await prisma.$executeRawUnsafe(`CREATE TRIGGER "test_every_order" BEFORE INSERT ON "OrderRecord" BEGIN SELECT RAISE(ABORT, 'every order fails'); END`);
  await prisma.$executeRawUnsafe(
    `CREATE TRIGGER "test_one_order" BEFORE INSERT ON "OrderRecord" WHEN NEW."orderId" = '${ORDER + 62n}' BEGIN SELECT RAISE(ABORT, 'this order fails'); END`,
  );
  const failures: string[] = [];
  const webhooks = sqliteIntakeStore(path, { planningFailed: (message) => failures.push(message) });
  try {
    await webhooks.ready();
    expect(failures).toEqual([expect.stringMatching(/every order fails/)]);
    expect(await prisma.pendingDelivery.count({ where: { failure: null } })).toBe(3);

    // The shared cause goes: the whole chunk now fails on the bad delivery alone, and is planned apart again.
    await prisma.$executeRawUnsafe(`DROP TRIGGER "test_every_order"`);
    await expect.poll(() => prisma.pendingDelivery.count({ where: { failure: null } }), { timeout: 15_000, interval: 100 }).toBe(0);
    expect(await prisma.pendingDelivery.findMany({ select: { webhookId: true, failure: true } })).toEqual([{ webhookId: "wh-shared-1", failure: expect.stringMatching(/this order fails/) }]);
    expect(await prisma.orderRecord.count()).toBe(2);
  } finally {
    await webhooks.close(0);
    await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "test_every_order"`);
    await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "test_one_order"`);
  }
}, 30_000);

it.runIf(onSqlite)("an intake that shares its thread waits for a Prisma transaction of that thread without stopping it, and keeps the delivery once it commits", async () => {
  const webhooks = sqliteIntakeStore(databasePath(), { host: inThisThread });
  const answering = new WebhooksAnswering();
  try {
    await webhooks.ready();
    // No planning meanwhile: the keep alone is measured.
    for (let i = 0; i < 8; i++) answering.begin();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    let releasingAt = 0;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // This thread's transaction holds SQLite's write lock across its awaits, as a job's does in the worker's thread.
    const transaction = prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`DELETE FROM "PendingDelivery" WHERE "id" < 0`);
      held();
      await new Promise((resolve) => setTimeout(resolve, 300));
      releasingAt = performance.now();
    });
    await holding;
    const results = await webhooks.intake([delivered]);
    const keptAt = performance.now();
    await transaction;
    clearInterval(ticker);
    expect(results).toEqual([{ outcome: "accepted" }]);
    expect(keptAt).toBeGreaterThan(releasingAt);
    // The thread went on meanwhile (a blocking wait would have stopped it, and the transaction with it, for lockWaitMs).
    expect(ticks).toBeGreaterThan(15);
    expect(await prisma.pendingDelivery.count()).toBe(1);
  } finally {
    while (answering.count() > 0) answering.end();
    await webhooks.close();
  }
});

/** A host whose thread serves the first intake and ends before it answers (a crash); asked again, it would serve one that works. */
function crashingOnce(asked: string[]): IntakeHost {
  return (settings, planner) => {
    if (asked.push("asked") > 1) return inThisThread(settings, planner);
    const { port1, port2 } = new MessageChannel();
    setTimeout(() => port2.close(), 50);
    return port1;
  };
}

it.runIf(onSqlite)("a batch whose intake's thread stopped fails, to be delivered again, and from then on the store has an intake of its own", async () => {
  const asked: string[] = [];
  const webhooks = sqliteIntakeStore(databasePath(), { host: crashingOnce(asked) });
  const answering = new WebhooksAnswering();
  try {
    // A burst under way: what is kept stays kept (not planned) while the test looks.
    for (let i = 0; i < 8; i++) answering.begin();
    await expect(webhooks.intake([delivered])).rejects.toThrow(/the thread that served the SQLite intake stopped/);
    expect(await webhooks.intake([{ ...delivered, webhookId: "wh-after-crash" }])).toEqual([{ outcome: "accepted" }]);
    // Not served by the host again (a thread that crashed once may again): a thread of its own.
    expect(asked).toHaveLength(1);
    expect(await prisma.pendingDelivery.findMany({ select: { webhookId: true } })).toEqual([{ webhookId: "wh-after-crash" }]);
  } finally {
    while (answering.count() > 0) answering.end();
    await webhooks.close(0);
  }
});

it.runIf(onSqlite)("a store whose intake's thread crashes as the app starts is ready all the same, with an intake of its own", async () => {
  const asked: string[] = [];
  const webhooks = sqliteIntakeStore(databasePath(), { host: crashingOnce(asked) });
  try {
    await webhooks.ready();
    expect(await webhooks.intake([delivered])).toEqual([{ outcome: "accepted" }]);
    expect(asked).toHaveLength(1);
  } finally {
    await webhooks.close(0);
  }
});
