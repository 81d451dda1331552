import "./lib/require-node";
// Runs the whole test suite on PostgreSQL: generates the client for it, runs
// vitest with TEST_DATABASE=postgresql (global-setup starts a private
// cluster), and puts the SQLite client back afterwards.
import { spawnSync } from "node:child_process";
import { generatePrismaClient } from "./lib/prisma-client";

let status = 1;
try {
  generatePrismaClient("postgresql");
  const result = spawnSync("npx", ["vitest", "run", "--config", "test/vitest.config.ts", ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, TEST_DATABASE: "postgresql" },
  });
  status = result.status ?? 1;
} finally {
  generatePrismaClient("sqlite");
}
process.exit(status);
