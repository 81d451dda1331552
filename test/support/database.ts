// A fresh database per test file, a copy of one the app's migration runner built for the run (as
// `npm run setup` builds one), on SQLite (default) or on the throwaway PostgreSQL of global-setup.ts.
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync } from "node:fs";
import { createAdapter, databaseKind } from "../../app/platform/db/adapter.server";
import { applyMigrations } from "../../app/platform/db/migrate.server";
import { deliveriesPlanned } from "./kept-deliveries";

async function runScripts(url: string, scripts: string[]): Promise<void> {
  const connection = await createAdapter(url).connect();
  try {
    for (const script of scripts) await connection.executeScript(script);
  } finally {
    await connection.dispose();
  }
}

/** Creates a database with no tables and returns its URL. */
export async function createEmptyDatabase(options: { postgresServerUrl?: string; sqliteFolder: string }): Promise<string> {
  const { postgresServerUrl, sqliteFolder } = options;
  const name = `t_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  if (postgresServerUrl && databaseKind(postgresServerUrl) === "postgresql") {
    await runScripts(postgresServerUrl, [`CREATE DATABASE "${name}"`]);
    const url = new URL(postgresServerUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }
  mkdirSync(sqliteFolder, { recursive: true });
  return `file:./${sqliteFolder}/${name}.sqlite`;
}

/** Creates a database from the migrations and returns its URL: the run's template (global-setup.ts). */
export async function createMigratedDatabase(options: { postgresServerUrl?: string; sqliteFolder: string }): Promise<string> {
  const url = await createEmptyDatabase(options);
  await applyMigrations(url);
  return url;
}

/**
 * A test file's database: a copy of the run's template, which the migrations
 * built once (a file copy on SQLite, CREATE DATABASE ... TEMPLATE on
 * PostgreSQL), instead of running every migration again for each file.
 */
export async function createTestDatabase(options: { templateUrl: string; postgresServerUrl?: string; sqliteFolder: string }): Promise<string> {
  const { templateUrl, postgresServerUrl, sqliteFolder } = options;
  const name = `t_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  if (postgresServerUrl && databaseKind(postgresServerUrl) === "postgresql") {
    const template = new URL(templateUrl).pathname.slice(1);
    await runScripts(postgresServerUrl, [`CREATE DATABASE "${name}" TEMPLATE "${template}"`]);
    const url = new URL(postgresServerUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }
  const path = `${sqliteFolder}/${name}.sqlite`;
  copyFileSync(templateUrl.slice("file:".length), path);
  return `file:./${path}`;
}

/** Empties every table between tests of one file. */
export async function resetDatabase(): Promise<void> {
  const { default: prisma } = await import("../../app/wiring/db.server");
  // A served app may still be planning what the last test delivered: its rows would land after the reset.
  // (What a killed app kept, nothing plans: it goes with the rest.)
  await deliveriesPlanned(2_000).catch(() => {});
  await prisma.$transaction([
    prisma.pendingDelivery.deleteMany(),
    prisma.refusedDelivery.deleteMany(),
    prisma.job.deleteMany(),
    prisma.serviceEvent.deleteMany(),
    prisma.flowActionRun.deleteMany(),
    prisma.dataRequest.deleteMany(),
    prisma.redactionLog.deleteMany(),
    prisma.payoutCredit.deleteMany(),
    prisma.orderRecord.deleteMany(),
    prisma.offerCode.deleteMany(),
    prisma.friendOffer.deleteMany(),
    prisma.orderSync.deleteMany(),
    prisma.pixelSignal.deleteMany(),
    prisma.referredCustomer.deleteMany(),
    prisma.couponBuyer.deleteMany(),
    prisma.leakedCode.deleteMany(),
    prisma.commissionBulkRun.deleteMany(),
    prisma.customerShareLink.deleteMany(),
    prisma.shop.deleteMany(),
    prisma.session.deleteMany(),
  ]);
  // The order webhooks remember which shops have the app for a while: a test starts with none known.
  globalThis.__referralBridgeShopCheck = undefined;
}

/** Which database this test file runs on (the claim is written in its dialect). */
export const testDatabaseKind = () => databaseKind(process.env.DATABASE_URL!);
