import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import databaseFree from "./support/database-free.json" with { type: "json" };

const root = fileURLToPath(new URL("..", import.meta.url));
const onPostgres = process.env.TEST_DATABASE === "postgresql";
// Vitest's default (one fewer than the cores) runs the files one at a time on a 2-core machine; each
// file has its own database and ports, and most of a file's time is spent waiting on its servers.
const maxWorkers = Math.max(2, availableParallelism() - 1);
const BROWSER = ["test/**/*.browser.test.ts", "packages/*/test/**/*.browser.test.ts"];
/** The app's tests and the workspace packages' own (packages/headless/test). */
const TESTS = ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"];

/**
 * What every project has (vitest hands a project none of the root's test options, nor `--exclude`).
 * expect.poll waits up to 10 s, not vitest's 1 s: what a test polls for (a page's answer, a job done)
 * can take seconds on a busy 2-core machine. A poll that asserts speed says its own timeout.
 */
const common = {
  root,
  setupFiles: ["test/support/setup.ts"],
  testTimeout: 20_000,
  hookTimeout: 60_000,
  expect: { poll: { timeout: 10_000 } },
  pool: "forks" as const,
  maxWorkers,
};
/** A browser test walks a merchant or a buyer through several pages, each waited for on its own: the whole may take a minute when the machine is busy. */
const BROWSER_TIMEOUT_MS = 60_000;

// A worker keeps its process for the next database-free file only when that file comes next in the
// queue: they run first, as a group of their own, instead of scattered among the others by size.
const later = { groupOrder: 1 };

// Three projects, so that a run can name them (`--project database`):
// - database: the files that use the database, but the browser's;
// - browser: the files that drive Chromium (*.browser.test.ts);
// - database-free: the files of support/database-free.json. They run one after another in the same process,
//   which keeps what they load from node_modules, and on PostgreSQL they are left out: they would
//   run there what the SQLite pass ran.
export default defineConfig({
  root,
  test: {
    // Once for the whole run: the built app, and the database each file's own is copied from.
    globalSetup: ["test/support/global-setup.ts"],
    maxWorkers,
    projects: [
      { test: { ...common, name: "database", include: TESTS, exclude: [...configDefaults.exclude, ...BROWSER, ...databaseFree], sequence: later } },
      { test: { ...common, testTimeout: BROWSER_TIMEOUT_MS, name: "browser", include: BROWSER, exclude: [...configDefaults.exclude, ...databaseFree], sequence: later } },
      ...(onPostgres ? [] : [{ test: { ...common, name: "database-free", include: databaseFree, isolate: false, sequence: { groupOrder: 0 } } }]),
    ],
  },
});
