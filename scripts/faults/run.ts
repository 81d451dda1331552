// npm run faults [-- --db sqlite|postgresql] [--orders N] [--backfill-orders N]
//
// The fault runs, one after the other on the same kind of database: order
// webhooks with kills and a failing service (main.ts), then a backfill with
// kills (backfill.ts). Fails when either does.
import "../lib/require-node";
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { db: { type: "string", default: "sqlite" }, orders: { type: "string" }, "backfill-orders": { type: "string" } } });
const runs: [string, string[]][] = [
  ["scripts/faults/main.ts", ["--db", values.db!, ...(values.orders ? ["--orders", values.orders] : [])]],
  ["scripts/faults/backfill.ts", ["--db", values.db!, ...(values["backfill-orders"] ? ["--backfill-orders", values["backfill-orders"]] : [])]],
];
let failed = false;
for (const [script, args] of runs) {
  const run = spawnSync(process.execPath, ["--import", "tsx", script, ...args], { stdio: "inherit" });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
