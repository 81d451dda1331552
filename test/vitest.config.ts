import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { databaseFreeGlobs } from "./support/database-free";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root,
  test: {
    include: ["test/**/*.test.ts"],
    // On PostgreSQL, only the files that use the database: the others would run what the SQLite pass ran.
    exclude: process.env.TEST_DATABASE === "postgresql" ? [...configDefaults.exclude, ...databaseFreeGlobs()] : configDefaults.exclude,
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default (one fewer than the cores) runs the files one at a time on a 2-core machine; each
    // file has its own database and ports, and most of a file's time is spent waiting on its servers.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
