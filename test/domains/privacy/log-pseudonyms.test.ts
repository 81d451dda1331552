import "../../entry/admin/browser-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { createLogger, logPseudonyms } from "../../../app/platform/logger/logger.server";
import { sandboxAppEnv, startAppServer, type AppServer } from "../../entry/admin/app-server";
import { shopifyOrder } from "../../support/orders";
import { connectShop, sandboxFaults, useTestSandbox } from "../../support/pipeline";
import { signedWebhook } from "../../support/shopify-requests";

// No buyer's or referrer's email and no customer id reaches the logs on a
// real order's path (the served build, its worker in the process, the
// sandbox service, debug level): the lines carry a keyed hash instead.

const sandbox = useTestSandbox();
let server: AppServer;

beforeAll(async () => {
  server = await startAppServer({ ...sandboxAppEnv(), WORKER_IN_PROCESS: "true", LOG_LEVEL: "debug", JOB_RETRY_BASE_MS: "100" });
}, 60_000);

afterAll(() => server?.stop());

const until = async (what: string, check: () => Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const deliver = (body: unknown) => fetch(signedWebhook({ topic: "orders/paid", url: `${server.origin}/webhooks/orders/paid`, body }));

// Customer ids: 64-bit, as Shopify's are.
const BUYER = { email: "Maria.Lopez@example.com", customerId: 7_210_000_000_441n };
const REFUSED_EMAIL = "maria.lopez@mailhost";
const SELF = { email: "alice@example.com", customerId: 7_210_000_000_442n };

describe("logs on a real order's path", () => {
  it("carry keyed hashes, never an email or a customer id", async () => {
    await connectShop(sandbox);
    // The first call for each order fails: the retry's reason is logged too.
    await sandboxFaults(sandbox, { failNext: 1, operations: ["event/record"] });
    const referred = shopifyOrder({ id: 9_700_001, email: BUYER.email, customerEmail: BUYER.email, customerId: BUYER.customerId, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    // Alice buying with her own code: blocked, and the reason names both emails.
    const self = shopifyOrder({ id: 9_700_002, email: SELF.email, customerEmail: SELF.email, customerId: SELF.customerId, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    const unreferred = shopifyOrder({ id: 9_700_003, email: BUYER.email, customerEmail: BUYER.email, customerId: BUYER.customerId });
    // An address the service refuses, in words that name it (the job's outcome reason).
    const refused = shopifyOrder({ id: 9_700_004, email: REFUSED_EMAIL, customerEmail: REFUSED_EMAIL, customerId: BUYER.customerId, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });

    expect((await Promise.all([deliver(referred), deliver(self), deliver(unreferred), deliver(refused)])).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await until("the orders decided", async () => (await prisma.orderRecord.count({ where: { status: { notIn: ["queued"] } } })) === 4);
    const records = await prisma.orderRecord.findMany({ orderBy: { orderId: "asc" }, select: { orderId: true, status: true, statusReason: true, lastError: true, results: true } });
    expect(records.slice(0, 3).map((r) => r.status)).toEqual(["recorded", "blocked", "awaiting_signal"]);
    expect(JSON.stringify(records[3]), JSON.stringify(records)).toContain(REFUSED_EMAIL);
    // The merchant's own page still names the people: only the logs must not.
    expect(JSON.stringify(records)).toMatch(/alice@example\.com/i);

    // A line or two at debug for every step, then the output as a whole.
    await until("the worker's lines", async () => server.output().includes("job finished"));
    const output = server.output();
    for (const needle of [BUYER.email, SELF.email, REFUSED_EMAIL, "maria.lopez", String(BUYER.customerId), String(SELF.customerId)]) {
      expect(output.toLowerCase(), needle).not.toContain(needle.toLowerCase());
    }
    expect(output).not.toMatch(/[a-z0-9._%+-]+@[a-z0-9-]+/i);
    // The people are still followable by their hash, which nobody can compute without the app's key.
    expect(output).toMatch(/\[email:[0-9a-f]{16}\]/);
  }, 60_000);

  it("hashes with the app's key: the same person the same way, another key another way", () => {
    const mine = logPseudonyms("ZGV2ZWxvcG1lbnQta2V5LW5vdC1mb3ItcHJvZC11c2U=");
    const theirs = logPseudonyms(Buffer.alloc(32, 7).toString("base64"));
    expect(mine("email", "Jon@Example.com")).toBe(mine("email", "jon@example.com"));
    expect(mine("email", "jon@example.com")).not.toBe(theirs("email", "jon@example.com"));
    const lines: string[] = [];
    const log = createLogger({ level: "info", destination: { write: (line: string) => lines.push(line) }, credentialsKey: "ZGV2ZWxvcG1lbnQta2V5LW5vdC1mb3ItcHJvZC11c2U=" });
    log.warn({ customerId: "7210000000017", err: new Error("No Shopify customer has the email jon@example.com") }, "store credit for gid://shopify/Customer/7210000000017 failed");
    expect(lines.join("")).not.toMatch(/jon@|7210000000017/);
    expect(lines.join("")).toContain(mine("customer", "7210000000017"));
  });
});
