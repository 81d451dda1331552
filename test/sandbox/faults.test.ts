import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Faults } from "../../sandbox/faults";
import { dataOf, startTestSandbox, type TestSandbox } from "./helpers";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.sandbox.close());
beforeEach(() => t.sandbox.reset());

const companyGet = () => t.call("company/get");

describe("fault injection", () => {
  it("failNext: the next N calls answer 503 with a plain 500 envelope", async () => {
    const set = await t.control("/faults", "POST", { failNext: 2 });
    expect(set.status).toBe(200);

    const first = await companyGet();
    const second = await companyGet();
    const third = await companyGet();

    expect([first.status, second.status, third.status]).toEqual([503, 503, 200]);
    expect(first.body.response.code).toBe("500");
    expect(first.body.response.errors.error).toHaveLength(1);
  });

  it("holdCalls: no call is answered until the hold is let go, and clearing the faults lets it go too", async () => {
    const answered: string[] = [];
    const answer = t.sandbox.holdCalls();
    const first = companyGet().then((r) => answered.push(`first ${r.status}`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toEqual([]);
    answer();
    await first;
    expect(answered).toEqual(["first 200"]);

    t.sandbox.holdCalls();
    const second = companyGet().then((r) => answered.push(`second ${r.status}`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toEqual(["first 200"]);
    t.sandbox.clearFaults();
    await second;
    expect(answered).toEqual(["first 200", "second 200"]);
  });

  it("dropNext: the connection closes without an answer", async () => {
    await t.control("/faults", "POST", { dropNext: 1 });

    await expect(fetch(t.v2Url("company/get"))).rejects.toThrow();
    expect((await companyGet()).status).toBe(200);
    const requests = (await t.control("/ledger")).body.requests;
    expect(requests.map((r: { status: number }) => r.status)).toEqual([0, 200]);
  });

  it("rateLimitNext and authFailNext answer 429 with Retry-After and 401", async () => {
    await t.control("/faults", "POST", { rateLimitNext: 1, authFailNext: 1 });

    const limited = await companyGet();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.body.response.message).toBe("TOO MANY REQUESTS: Rate limit exceeded.");
    const unauthorised = await companyGet();
    expect(unauthorised.status).toBe(401);
    expect((await companyGet()).status).toBe(200);
  });

  it("latencyMs delays answers; errorRate 1 fails every call", async () => {
    t.sandbox.setFaults({ latencyMs: 150 });
    const started = Date.now();
    expect((await companyGet()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    await t.control("/faults", "POST", { errorRate: 1 });
    const failed = await companyGet();
    expect(failed.status).toBe(500);
    expect(failed.body.response.code).toBe("500");

    await t.control("/faults", "DELETE");
    expect((await companyGet()).status).toBe(200);
  });

  it("operations restricts faults to the operations named", async () => {
    await t.control("/faults", "POST", { failNext: 1, operations: ["event/record/"] });

    expect((await companyGet()).status).toBe(200);
    const event = await t.call("event/record", { email: "f@example.com", campaign_uid: "1001", short_code: "ALICE10" });
    expect(event.status).toBe(503);
    const retried = await t.call("event/record", { email: "f@example.com", campaign_uid: "1001", short_code: "ALICE10" });
    expect(retried.status).toBe(200);
  });

  it("cutAfterActRate carries the call out, then closes the connection without an answer", async () => {
    await t.control("/faults", "POST", { cutAfterActRate: 1, operations: ["event/record"] });
    const params = new URLSearchParams({ email: "cut@example.com", campaign_uid: "1001", short_code: "ALICE10", transaction_uid: "cut-1" });
    await expect(fetch(t.v2Url("event/record"), { method: "POST", body: params })).rejects.toThrow();

    const ledger = (await t.control("/ledger")).body;
    expect(ledger.events.map((e: { result: { status: number } }) => e.result.status)).toEqual([200]);
    expect(ledger.commissions.filter((c: { transaction_id: string }) => c.transaction_id === "cut-1")).toHaveLength(1);
    expect(ledger.requests.at(-1).status).toBe(0);
  });

  it("the fault rates share the calls out, one fault per call, and slowRate holds calls slowMs", () => {
    const draws = [0.05, 0.15, 0.25, 0.35, 0.45, 0.9];
    const faults = new Faults(() => draws.shift()!);
    faults.set({ errorRate: 0.1, dropRate: 0.1, rateLimitRate: 0.1, slowRate: 0.1, slowMs: 700, cutAfterActRate: 0.1 });
    expect(Array.from({ length: 6 }, () => faults.decide("event/record"))).toEqual([
      { latencyMs: 0, action: "error" },
      { latencyMs: 0, action: "drop" },
      { latencyMs: 0, action: "rateLimit" },
      { latencyMs: 700 },
      { latencyMs: 0, action: "cutAfterAct" },
      { latencyMs: 0 },
    ]);
  });

  it("rejects a malformed fault config", async () => {
    expect((await t.control("/faults", "POST", { dropRate: 0.6, errorRate: 0.6 })).status).toBe(400);
    expect((await t.control("/faults", "POST", { errorRate: 3 })).status).toBe(400);
    expect((await t.control("/faults", "POST", { explode: true })).status).toBe(400);
  });
});

describe("reset and credentials", () => {
  it("reset restores the seed and clears faults and the ledger", async () => {
    await t.call("balance/add", { email: "alice@example.com", type: "money", amount: "100" });
    await t.control("/faults", "POST", { failNext: 5 });

    const reset = await t.control("/reset", "POST");

    expect(reset.status).toBe(200);
    const alice = dataOf((await t.call("ambassador/get", { email: "alice@example.com" })).body).ambassador;
    expect(alice.balance_money).toBe("12.00");
    expect((await t.control("/faults")).body).toEqual({});
    expect((await t.control("/ledger")).body.requests).toHaveLength(1);
  });

  it("rotated credentials make the old token fail", async () => {
    await t.control("/credentials", "POST", { username: "demo", token: "rotated-token" });

    const old = await fetch(`${t.sandbox.baseUrl}/api/v2/demo/demo-token/json/company/get/`);
    expect(old.status).toBe(401);
    expect(t.sandbox.token).toBe("rotated-token");
    expect((await companyGet()).status).toBe(200);
  });
});

describe("robustness", () => {
  it("survives odd requests", async () => {
    const oversized = await fetch(t.v2Url("event/record"), { method: "POST", body: "x=".padEnd(1_100_000, "a") });
    expect(oversized.status).toBe(413);
    const jsonArray = await fetch(t.v2Url("event/record"), { method: "POST", headers: { "content-type": "application/json" }, body: "[1,2]" });
    expect(jsonArray.status).toBe(400);
    const badPath = await fetch(`${t.sandbox.baseUrl}/api/v2/demo`);
    expect(badPath.status).toBe(404);
    const badEncoding = await fetch(`${t.sandbox.baseUrl}/api/v2/%E0%A4%A/demo-token/json/company/get/`);
    expect(badEncoding.status).toBe(401);
    expect((await companyGet()).status).toBe(200);
  });
});
