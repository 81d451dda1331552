import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeEach, expect, inject, vi } from "vitest";
import { isDatabaseFree, NO_DATABASE_URL } from "./database-free";
import { takeDeprecatedUses } from "./deprecated-fields";
import { describeServedErrors, takeUnexpectedServedErrors } from "./served-output";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** A copy of the run's template. Imported here only: a database-free file does without loading the database drivers. */
async function ownDatabase(): Promise<string> {
  const { createTestDatabase } = await import("./database");
  return createTestDatabase({
    templateUrl: inject("templateDatabaseUrl"),
    postgresServerUrl: inject("postgresServerUrl") || undefined,
    sqliteFolder: inject("sqliteFolder"),
  });
}

// Every test file gets its own database (those of database-free.ts none) and the environment of a test run.
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL ??= "silent";
process.env.SHOPIFY_API_KEY = "test-api-key";
process.env.SHOPIFY_API_SECRET = "test-api-secret";
process.env.SHOPIFY_APP_URL = "https://referral-bridge.test";
process.env.WORKER_IN_PROCESS = "false";
process.env.ALLOW_LOOPBACK_SERVICE = "true";
process.env.DATABASE_URL = isDatabaseFree(relative(repoRoot, expect.getState().testPath!)) ? NO_DATABASE_URL : await ownDatabase();
globalThis.__referralBridgePrisma = undefined;
globalThis.__referralBridgeIntake = undefined;

// A test fails when it writes an unexpected console.error: errors are either
// asserted on (with expectConsoleError) or they are bugs.
let errorSpy: ReturnType<typeof vi.spyOn> | undefined;
let expected = false;

export function expectConsoleError(): void {
  expected = true;
}

beforeEach(() => {
  expected = false;
  errorSpy = vi.spyOn(console, "error");
});

// A test fails when the app asked the Admin API stand-in for a deprecated field.
afterEach(() => {
  const deprecated = takeDeprecatedUses();
  if (deprecated.length > 0) {
    throw new Error(`Deprecated Admin API fields used: ${deprecated.map((use) => `${use.operation}: ${use.messages.join("; ")}`).join("\n")}`);
  }
});

afterEach(() => {
  const calls = errorSpy?.mock.calls ?? [];
  errorSpy?.mockRestore();
  if (calls.length > 0 && !expected) {
    throw new Error(`Unexpected console.error: ${calls.map((call: unknown[]) => call.map(String).join(" ")).join("\n")}`);
  }
});

// A served build's error lines fail the test during which they came (served-output.ts). Lines that
// come after a test's end are judged by its patterns when the next test starts, or when the file ends.
function failOnServedErrors(forget: boolean): void {
  const lines = takeUnexpectedServedErrors({ forget });
  if (lines.length > 0) throw new Error(describeServedErrors(lines));
}
beforeEach(() => failOnServedErrors(true));
afterEach(() => failOnServedErrors(false));
afterAll(() => failOnServedErrors(true));
