import "../admin/browser-env";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startAppServer, testAppEnv, type AppServer } from "../admin/app-server";
import { resetDatabase, testDatabaseKind } from "../../support/database";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { signedWebhook } from "../../support/shopify-requests";

// PostgreSQL ends a server's connections when it restarts, fails over, or an
// operator (or a proxy's idle limit) ends them. The app's idle connections
// then fail while nobody uses them: the served build stays up and answers
// the next webhook on new ones, instead of dying of an unhandled error.

const onPostgres = testDatabaseKind() === "postgresql";
let server: AppServer | undefined;

beforeAll(async () => {
  if (onPostgres) server = await startAppServer(testAppEnv());
}, 60_000);
beforeEach(async () => {
  await resetDatabase();
  await installShop();
});
afterAll(() => server?.stop());

const deliver = (id: bigint) =>
  fetch(signedWebhook({ topic: "orders/paid", body: shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), url: `${server!.origin}/webhooks/orders/paid` }));

it.runIf(onPostgres)("answers webhooks after PostgreSQL has ended every connection of the app", async () => {
  expect((await deliver(7_340_312_345_678_901_234n)).status).toBe(200);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  await admin.connect();
  try {
    const { rows } = await admin.query(`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`);
    expect(rows.length).toBeGreaterThan(0);
  } finally {
    await admin.end();
  }
  // The idle connections learn of it as the server's goodbye arrives.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(server!.exitCode(), server!.output()).toBeNull();
  expect((await deliver(7_340_312_345_678_901_235n)).status).toBe(200);
  expect(await prisma.orderRecord.count()).toBe(2);
  expect(server!.exitCode(), server!.output()).toBeNull();
});
