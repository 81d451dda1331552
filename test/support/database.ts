// A fresh database per test file, built by running the committed migrations,
// on SQLite (default) or on the throwaway PostgreSQL of global-setup.ts.
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createAdapter, databaseKind } from "../../app/db/adapter.server";

function migrationScripts(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => readFileSync(join(folder, name, "migration.sql"), "utf8"));
}

async function runScripts(url: string, scripts: string[]): Promise<void> {
  const connection = await createAdapter(url).connect();
  try {
    for (const script of scripts) await connection.executeScript(script);
  } finally {
    await connection.dispose();
  }
}

/** Creates an empty database from the migrations and returns its URL. */
export async function createTestDatabase(options: { postgresServerUrl?: string; sqliteFolder: string }): Promise<string> {
  const { postgresServerUrl, sqliteFolder } = options;
  const name = `t_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  if (postgresServerUrl && databaseKind(postgresServerUrl) === "postgresql") {
    await runScripts(postgresServerUrl, [`CREATE DATABASE "${name}"`]);
    const url = new URL(postgresServerUrl);
    url.pathname = `/${name}`;
    await runScripts(url.toString(), migrationScripts("prisma/postgresql/migrations"));
    return url.toString();
  }
  mkdirSync(sqliteFolder, { recursive: true });
  const url = `file:./${sqliteFolder}/${name}.sqlite`;
  await runScripts(url, migrationScripts("prisma/migrations"));
  return url;
}

/** Empties every table between tests of one file. */
export async function resetDatabase(): Promise<void> {
  const { default: prisma } = await import("../../app/db.server");
  await prisma.$transaction([
    prisma.job.deleteMany(),
    prisma.serviceEvent.deleteMany(),
    prisma.dataRequest.deleteMany(),
    prisma.redactionLog.deleteMany(),
    prisma.payoutCredit.deleteMany(),
    prisma.orderRecord.deleteMany(),
    prisma.shop.deleteMany(),
    prisma.session.deleteMany(),
  ]);
}
