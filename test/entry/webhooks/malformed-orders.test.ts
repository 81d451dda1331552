import "../admin/browser-env";
import { afterEach, beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startAppServer, testAppEnv, type AppServer } from "../admin/app-server";
import { resetDatabase } from "../../support/database";
import { expectServedError } from "../../support/served-output";
import { deliveriesPlanned } from "../../support/kept-deliveries";
import { shopifyOrder, shopifyRefund } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

// A signed delivery whose body the app cannot read gets the same answer from
// the served build on either database: 400, naming the field, and nothing
// kept of it. SQLite, which keeps a delivery and plans it after the burst
// (decision 022), reads it before it keeps it; PostgreSQL plans at once.

let server: AppServer | undefined;

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const { id: _noId, ...orderWithoutId } = shopifyOrder({ id: 95_001 });
const { order_id: _noOrderId, ...refundWithoutOrder } = shopifyRefund(95_003, ["5.00"]);

/** Posted together, so that they share a batch: [topic, body, webhook id, status, answer]. */
const DELIVERIES = [
  ["orders/paid", orderWithoutId, "wh-no-id", 400, "Malformed payload: id: expected an id, received nothing"],
  ["orders/paid", { ...shopifyOrder({ id: 95_002 }), total_price: { amount: "10.00", currency_code: "USD" } }, "wh-priceless", 400, "Malformed payload: total_price: expected an amount, received an object"],
  ["orders/paid", { ...shopifyOrder({ id: 95_005 }), total_price: "ten" }, "wh-price-in-words", 400, 'Malformed payload: total_price: expected an amount, received string "ten"'],
  ["refunds/create", refundWithoutOrder, "wh-no-order", 400, "Malformed payload: order_id: expected an id, received nothing"],
  ["orders/paid", shopifyOrder({ id: 95_004, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), "wh-good", 200, ""],
] as const;

const BAD_IDS = DELIVERIES.filter(([, , , status]) => status === 400).map(([, , webhookId]) => webhookId);

it.each([
  { intake: "in a thread of its own", WORKER_IN_PROCESS: "false" },
  { intake: "in the job worker's thread", WORKER_IN_PROCESS: "true" },
])("answers each malformed order 400 naming the field, keeps none of them, and stores the good one: the intake $intake", async ({ WORKER_IN_PROCESS }) => {
  expectServedError(/"msg":"malformed webhook payload"/);
  server = await startAppServer({ ...testAppEnv(), WORKER_IN_PROCESS });
  const origin = server.origin;

  // GIVEN three signed bodies the app cannot read and one it can, delivered at once
  const answers = await Promise.all(
    DELIVERIES.map(async ([topic, body, webhookId]) => {
      const response = await fetch(signedWebhook({ topic, body, webhookId, url: `${origin}/webhooks/${topic}` }));
      return [response.status, await response.text()];
    }),
  );

  // THEN each bad one is answered 400 with its field named, the good one 200
  expect(answers).toEqual(DELIVERIES.map(([, , , status, answer]) => [status, answer]));
  // AND none of the bad ones was kept to be planned later
  expect(await prisma.pendingDelivery.count({ where: { webhookId: { in: BAD_IDS } } })).toBe(0);
  // AND once what was kept is planned, only the good order has a record and a job, and nothing is set aside
  await deliveriesPlanned();
  // (The app's own schedules, a reconciliation pass and the purge, are jobs too.)
  const orderJobs = await prisma.job.findMany({ where: { kind: { startsWith: "order." } }, select: { key: true } });
  expect(orderJobs.map((job) => job.key)).toEqual([`${TEST_SHOP}:order.record:95004`]);
  expect(await prisma.orderRecord.findMany({ select: { orderId: true } })).toEqual([{ orderId: "95004" }]);
  expect(await prisma.pendingDelivery.count()).toBe(0);
}, 60_000);
