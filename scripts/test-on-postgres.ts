// Runs the whole test suite on PostgreSQL: generates the client for it, runs
// vitest with TEST_DATABASE=postgresql (global-setup starts a private
// cluster), and puts the SQLite client back afterwards.
import "./lib/require-node";
import { spawnSync } from "node:child_process";

const PLACEHOLDER_PG_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

function run(command: string, args: string[], env: Record<string, string>): number {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status ?? 1;
}

let status = run("npx", ["prisma", "generate"], { DATABASE_URL: PLACEHOLDER_PG_URL });
if (status === 0) {
  status = run("npx", ["vitest", "run", "--config", "test/vitest.config.ts", ...process.argv.slice(2)], {
    TEST_DATABASE: "postgresql",
  });
}
const sqliteEnv = { ...process.env };
delete sqliteEnv.DATABASE_URL;
spawnSync("npx", ["prisma", "generate"], { stdio: "inherit", env: sqliteEnv });
process.exit(status);
