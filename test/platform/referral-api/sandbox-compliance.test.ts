import { describe, expect, it } from "vitest";
import { createExportLimiter } from "../../../app/platform/referral-api";
import { failureOf } from "./support/failure";
import { useSandbox } from "./support/sandbox";

const sandbox = useSandbox();

/** A clock that only moves when the code under test sleeps; `onSleep` runs before the sleep ends. */
function fakeTime(onSleep: (ms: number) => Promise<void> | void = () => undefined) {
  const state = { t: 0, sleeps: [] as number[] };
  return {
    state,
    now: () => state.t,
    sleep: async (ms: number) => {
      state.sleeps.push(ms);
      state.t += ms;
      await onSleep(ms);
    },
  };
}

async function exportRequests() {
  return (await sandbox.ledger()).requests.filter((r) => r.operation === "compliance/export");
}

describe("compliance operations against the sandbox", () => {
  it("compliance/export returns the personal data document (unwrapped)", async () => {
    const client = sandbox.client({ exportLimiter: createExportLimiter({ limit: 100 }) });
    const data = await client.exportPersonalData({ email: "alice@example.com" });
    expect(data.profile).toMatchObject({ first_name: "Alice", email: "alice@example.com" });
    expect(Array.isArray(data.ipAddresses)).toBe(true);
    expect(data.raw).toHaveProperty("social_data");
    expect((await failureOf(client.exportPersonalData({ email: "stranger@example.com" }))).kind).toBe("not_found");
    const missing = await failureOf(client.exportPersonalData({} as never));
    expect(missing).toMatchObject({ kind: "invalid_request", errors: ["The following POST parameter is required: email."] });
  });

  it("compliance/remove erases the person: afterwards they are gone", async () => {
    const client = sandbox.client({ exportLimiter: createExportLimiter({ limit: 100 }) });
    await expect(client.removePersonalData({ email: "carol@example.com", confirm: true })).resolves.toBeUndefined();
    expect((await failureOf(client.getAmbassador({ email: "carol@example.com" }))).kind).toBe("not_found");
    const missing = await failureOf(client.removePersonalData({ email: "carol@example.com" } as never));
    expect(missing).toMatchObject({ kind: "invalid_request", errors: ["The following POST parameter is required: confirm."] });
  });

  it("the 7th export in a minute waits for the client limiter instead of failing", async () => {
    // The sandbox counts a real minute; the client's limiter runs on a fake clock whose
    // "minute" passes when the test resets the sandbox (which empties its window).
    let releaseWait: () => void = () => undefined;
    const waited = new Promise<void>((resolve) => {
      releaseWait = resolve;
    });
    let sleeping: () => void = () => undefined;
    const asleep = new Promise<void>((resolve) => {
      sleeping = resolve;
    });
    const time = fakeTime(async () => {
      sleeping();
      await waited;
    });
    const client = sandbox.client({ exportLimiter: createExportLimiter({ limit: 6, now: time.now, sleep: time.sleep }) });

    for (let i = 0; i < 6; i += 1) await client.exportPersonalData({ email: "alice@example.com" });
    const seventh = client.exportPersonalData({ email: "bob@example.com" });
    await asleep;
    expect(time.state.sleeps).toEqual([60_000]);
    expect((await exportRequests()).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);

    await sandbox.reset();
    releaseWait();
    expect((await seventh).profile).toMatchObject({ email: "bob@example.com" });
    expect((await exportRequests()).map((r) => r.status)).toEqual([200]);
  });

  it("a 429 from the service is waited out for Retry-After and retried", async () => {
    const time = fakeTime(async () => {
      await sandbox.reset();
    });
    const client = sandbox.client({ exportLimiter: createExportLimiter({ limit: 100 }), sleep: time.sleep });
    for (let i = 0; i < 6; i += 1) await client.exportPersonalData({ email: "alice@example.com" });
    const data = await client.exportPersonalData({ email: "bob@example.com" });
    expect(data.profile).toMatchObject({ email: "bob@example.com" });
    expect(time.state.sleeps).toHaveLength(1);
    expect(time.state.sleeps[0]).toBeGreaterThanOrEqual(1000);
    expect(time.state.sleeps[0]).toBeLessThanOrEqual(60_000);
  });

  it("without a client-side limit, the service's 429 surfaces as rate_limited after bounded retries", async () => {
    const time = fakeTime();
    const client = sandbox.client({ exportLimiter: createExportLimiter({ limit: 100 }), sleep: time.sleep, exportRateLimitRetries: 2 });
    for (let i = 0; i < 6; i += 1) await client.exportPersonalData({ email: "alice@example.com" });
    const error = await failureOf(client.exportPersonalData({ email: "alice@example.com" }));
    expect(error).toMatchObject({ kind: "rate_limited", status: 429, retryable: true });
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(error.errors[0]).toMatch(/6 requests per minute/);
    expect(time.state.sleeps).toHaveLength(2);
    expect((await exportRequests()).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429]);
  });
});
