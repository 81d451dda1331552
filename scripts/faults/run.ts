// npm run faults [-- --db sqlite|postgresql] [--orders N] [--backfill-orders N]
//
// The fault runs, one after the other on the same kind of database: order
// webhooks with kills and a failing service (main.ts), then a backfill with
// kills (backfill.ts). Fails when either does.
//
// On PostgreSQL the Prisma client is generated here once for both runs, and the
// SQLite one put back once after them (each run did both itself: four
// `prisma generate` instead of two). Side by side, the two runs took no less
// time than one after the other on this 2-core machine: both are CPU-bound.
import "../lib/require-node";
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { generatePrismaClient, PRISMA_CLIENT_HELD } from "../lib/prisma-client";

const { values } = parseArgs({ options: { db: { type: "string", default: "sqlite" }, orders: { type: "string" }, "backfill-orders": { type: "string" } } });
const onPostgres = values.db === "postgresql";
const runs: [string, string[]][] = [
  ["scripts/faults/main.ts", ["--db", values.db!, ...(values.orders ? ["--orders", values.orders] : [])]],
  ["scripts/faults/backfill.ts", ["--db", values.db!, ...(values["backfill-orders"] ? ["--backfill-orders", values["backfill-orders"]] : [])]],
];
// The client as generated here: the runs neither generate it nor put the SQLite one back.
const env = { ...process.env, ...(onPostgres ? { [PRISMA_CLIENT_HELD]: "postgresql" } : {}) };
let failed = false;
if (onPostgres) generatePrismaClient("postgresql");
try {
  for (const [script, args] of runs) {
    const run = spawnSync(process.execPath, ["--import", "tsx", script, ...args], { stdio: "inherit", env });
    if (run.status !== 0) failed = true;
  }
} finally {
  if (onPostgres) generatePrismaClient("sqlite");
}
process.exit(failed ? 1 : 0);
