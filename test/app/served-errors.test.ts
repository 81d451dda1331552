import "../entry/admin/browser-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/wiring/db.server";
import { startTestAppServer, type AppServer } from "../entry/admin/app-server";
import { expectServedError, isErrorLine, takeUnexpectedServedErrors } from "../support/served-output";

// What a merchant or a customer sees when the production server fails, and how
// the test harness (test/support/served-output.ts) fails a test whose served
// app wrote an error line. The app is made to fail by taking away the table
// a public route reads (renamed, then put back).

let server: AppServer;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);

afterAll(() => server?.stop());

const ENDPOINT = "a-endpoint-nobody-has-0001";

async function withoutShopTable<T>(run: () => Promise<T>): Promise<T> {
  await prisma.$executeRawUnsafe('ALTER TABLE "Shop" RENAME TO "ShopAway"');
  try {
    return await run();
  } finally {
    await prisma.$executeRawUnsafe('ALTER TABLE "ShopAway" RENAME TO "Shop"');
  }
}

/** A page's text as a visitor reads it: no scripts, no tags. */
const visibleText = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ");

/** The error lines the served app wrote since the last look, polled until one matches `pattern` (they arrive after the answer). */
async function errorLinesUntil(pattern: RegExp): Promise<string[]> {
  const seen: string[] = [];
  await expect
    .poll(() => {
      seen.push(...takeUnexpectedServedErrors({ forget: false }).map(({ line }) => line));
      return seen.some((line) => pattern.test(line));
    })
    .toBe(true);
  return seen;
}

describe("the production error pages", () => {
  it("answers an unknown page 404 with a page that names no file, module or stack", async () => {
    const answer = await fetch(`${server.origin}/no-such-page/anywhere`);
    expect(answer.status).toBe(404);
    const text = visibleText(await answer.text());
    expect(text).toContain("Page not found");
    expect(text).not.toMatch(/\bat .*\(|node_modules|\.js:\d+|Error/);
  });

  it("answers a failing request 500 without the error's message or stack, and the error line fails the test unless expected", async () => {
    const answer = await withoutShopTable(() => fetch(`${server.origin}/referral-webhooks/${ENDPOINT}`, { method: "POST", body: "{}" }));
    expect(answer.status).toBe(500);
    const page = await answer.text();
    expect(page).not.toMatch(/ShopAway|prisma|\bat .*\(|node_modules|\.js:\d+/i);
    expect(visibleText(page)).toMatch(/Something went wrong|Unexpected Server Error/);

    // The harness kept the served app's error line: setup.ts's afterEach would throw on it.
    const lines = await errorLinesUntil(/Shop/);
    expect(lines.length).toBeGreaterThan(0);
  });

  it("lets a test that expects the error line pass, and only for the pattern it names", async () => {
    expectServedError(/The table `(main\.)?Shop` does not exist|relation "(public\.)?Shop" does not exist|does not exist in the current database/);
    const answer = await withoutShopTable(() => fetch(`${server.origin}/referral-webhooks/${ENDPOINT}`, { method: "POST", body: "{}" }));
    expect(answer.status).toBe(500);
    // Nothing else is pending: the same request once more with the table back is a plain 404, and no line came with it.
    expect((await fetch(`${server.origin}/referral-webhooks/${ENDPOINT}`, { method: "POST", body: "{}" })).status).toBe(404);
  });
});

describe("which lines are error lines", () => {
  it("takes the logger's error and fatal lines and other stderr text, not its warnings nor Node's", () => {
    expect(isErrorLine('{"level":50,"msg":"job failed"}', "stdout")).toBe(true);
    expect(isErrorLine('{"level":60,"msg":"fatal"}', "stdout")).toBe(true);
    expect(isErrorLine('{"level":40,"msg":"slow"}', "stdout")).toBe(false);
    expect(isErrorLine('{"level":40,"msg":"slow"}', "stderr")).toBe(false);
    expect(isErrorLine("GET /app 200 12 ms", "stdout")).toBe(false);
    expect(isErrorLine("Error: boom", "stderr")).toBe(true);
    expect(isErrorLine("    at handler (build/index.js:1:2)", "stderr")).toBe(true);
    expect(isErrorLine("(node:123) ExperimentalWarning: SQLite is an experimental feature", "stderr")).toBe(false);
    expect(isErrorLine("(Use `node --trace-warnings ...` to show where the warning was created)", "stderr")).toBe(false);
  });
});
