// The generated Prisma client serves one database kind at a time (its
// provider is fixed at generation): scripts that run on PostgreSQL generate
// it for PostgreSQL first and put the SQLite one back afterwards.
import { spawnSync } from "node:child_process";
import type { DatabaseKind } from "../../app/platform/db/adapter.server";

/** Any PostgreSQL URL picks the PostgreSQL schema; generation connects to nothing. */
const PLACEHOLDER_PG_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

export function generatePrismaClient(kind: DatabaseKind): void {
  const env = { ...process.env };
  if (kind === "postgresql") env.DATABASE_URL = PLACEHOLDER_PG_URL;
  else delete env.DATABASE_URL;
  const result = spawnSync("npx", ["prisma", "generate"], { stdio: ["ignore", "ignore", "inherit"], env });
  if (result.status !== 0) throw new Error(`prisma generate for ${kind} failed`);
}

/**
 * Set (to the database kind) by a script that generated the client for the runs it starts one after another
 * and puts the SQLite one back itself once they are all done (scripts/faults/run.ts): those runs leave it as it is.
 */
export const PRISMA_CLIENT_HELD = "REFERRAL_BRIDGE_PRISMA_CLIENT_HELD";

/** A run on `kind`: generates its client, and puts the SQLite one back when the process exits, unless the caller holds it. */
export function useClientForRun(kind: DatabaseKind): void {
  if (kind !== "postgresql" || process.env[PRISMA_CLIENT_HELD] === kind) return;
  generatePrismaClient("postgresql");
  process.on("exit", () => generatePrismaClient("sqlite"));
}
