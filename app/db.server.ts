import { PrismaClient } from "@prisma/client";
import { createAdapter, databaseKind } from "./db/adapter.server";
import { attachPlainSql, createPlainSql } from "./db/sql.server";
import { getEnv } from "./env.server";

declare global {
  // One client across Remix dev reloads.
  var __referralBridgePrisma: PrismaClient | undefined;
}

export function createPrismaClient(databaseUrl: string): PrismaClient {
  const client = new PrismaClient({ adapter: createAdapter(databaseUrl) });
  attachPlainSql(client, createPlainSql(databaseUrl));
  if (databaseKind(databaseUrl) === "sqlite") {
    tuneSqlite(client).catch((error) => console.error("Could not set SQLite's journal mode", error));
  }
  return client;
}

/**
 * Write-ahead logging lets the app and worker processes read while one
 * writes; synchronous stays FULL so an acknowledged webhook survives a power
 * cut. busy_timeout makes a second process wait for the lock instead of failing.
 */
async function tuneSqlite(client: PrismaClient): Promise<void> {
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$queryRawUnsafe("PRAGMA synchronous = FULL");
  await client.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
}

const prisma = (globalThis.__referralBridgePrisma ??= createPrismaClient(getEnv().DATABASE_URL));

export default prisma;
