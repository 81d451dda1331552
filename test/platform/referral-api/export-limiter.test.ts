import { describe, expect, it } from "vitest";
import { createExportLimiter, createReferralClient, ReferralApiError } from "../../../app/platform/referral-api";
import { fakeFetch, json, ok } from "./support/fake-fetch";

function fakeClock() {
  const clock = { t: 1_000_000, sleeps: [] as number[] };
  return {
    clock,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
  };
}

describe("export limiter", () => {
  it("lets 6 through at once, then makes the 7th wait until the first leaves the window", async () => {
    const { clock, now, sleep } = fakeClock();
    const limiter = createExportLimiter({ now, sleep });
    for (let i = 0; i < 6; i += 1) {
      expect(await limiter.acquire("acct")).toBe(0);
      clock.t += 1000;
    }
    // six requests at t0 .. t0+5s; now t0+6s: the 7th waits until t0+60s
    expect(await limiter.acquire("acct")).toBe(54_000);
    expect(clock.sleeps).toEqual([54_000]);
    // the 8th: window holds t0+1s .. t0+5s and t0+60s → waits until t0+61s
    expect(await limiter.acquire("acct")).toBe(1000);
  });

  it("keeps accounts apart", async () => {
    const { now, sleep, clock } = fakeClock();
    const limiter = createExportLimiter({ limit: 1, now, sleep });
    await limiter.acquire("a");
    expect(await limiter.acquire("b")).toBe(0);
    expect(clock.sleeps).toEqual([]);
  });

  it("serves concurrent callers in order, each in its own slot", async () => {
    const { now, sleep, clock } = fakeClock();
    const start = clock.t;
    const limiter = createExportLimiter({ limit: 2, windowMs: 10_000, now, sleep });
    const order: number[] = [];
    const times: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        limiter.acquire("acct").then(() => {
          order.push(i);
          times.push(clock.t - start);
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(times).toEqual([0, 0, 10_000, 10_000, 20_000]);
  });

  it("refuses a limit below one", () => {
    expect(() => createExportLimiter({ limit: 0 })).toThrow(RangeError);
  });
});

describe("exportPersonalData", () => {
  const doc = {
    profile: { first_name: "Alice", email: "alice@example.com", phone: null },
    ip_addresses: ["127.0.0.1"],
    satisfaction_surveys: [],
    fingerprints: [{ cuid: "c1", created_at: "2024-01-01", ip_addresses: [], devices: [] }],
    social_data: { bio: null },
    emails: [{ recipient: "alice@example.com", subject: "Hi", message: "...", date: "2024-01-01" }],
  };

  function setup(...answers: Response[]) {
    const { clock, now, sleep } = fakeClock();
    const fake = fakeFetch(...answers);
    const client = createReferralClient({
      baseUrl: "http://svc.test",
      username: "demo",
      token: "tok",
      fetch: fake.fetch,
      exportLimiter: createExportLimiter({ now, sleep }),
      sleep,
    });
    return { client, calls: fake.calls, clock };
  }

  it("reads the unwrapped document", async () => {
    const { client, calls } = setup(json(doc));
    const result = await client.exportPersonalData({ email: "alice@example.com" });
    expect(result).toMatchObject({ profile: { first_name: "Alice" }, ipAddresses: ["127.0.0.1"], fingerprints: [{ cuid: "c1" }], socialData: { bio: null } });
    expect(result.raw).toEqual(doc);
    expect(calls[0].method).toBe("POST");
    expect(calls[0].url).toBe("http://svc.test/api/v2/demo/tok/json/compliance/export/");
  });

  it("reads a wrapped document as well", async () => {
    const { client } = setup(ok(doc));
    expect((await client.exportPersonalData({ email: "alice@example.com" })).emails).toHaveLength(1);
  });

  it("waits for the limiter instead of failing on the 7th call in a minute", async () => {
    const { client, clock, calls } = setup(json(doc));
    const start = clock.t;
    for (let i = 0; i < 7; i += 1) await client.exportPersonalData({ email: `p${i}@example.com` });
    expect(calls).toHaveLength(7);
    expect(clock.t - start).toBe(60_000);
  });

  it("waits out a 429 for Retry-After and retries", async () => {
    const { client, clock, calls } = setup(
      json({ response: { code: "429", message: "TOO MANY REQUESTS", errors: { error: ["Rate limit exceeded."] } } }, 429, { "retry-after": "12" }),
      json(doc),
    );
    const result = await client.exportPersonalData({ email: "alice@example.com" });
    expect(result.profile).toMatchObject({ first_name: "Alice" });
    expect(calls).toHaveLength(2);
    expect(clock.sleeps).toEqual([12_000]);
  });

  it("gives up after a bounded number of 429s", async () => {
    const { client, calls } = setup(json({ response: { code: "429", message: "TOO MANY REQUESTS" } }, 429, { "retry-after": "1" }));
    const error = await client.exportPersonalData({ email: "alice@example.com" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReferralApiError);
    expect((error as ReferralApiError).kind).toBe("rate_limited");
    expect(calls).toHaveLength(4);
  });

  it("does not retry other errors", async () => {
    const { client, calls } = setup(
      json({ response: { code: "400", message: "BAD", errors: { error: ["The following POST parameter is required: email."] } } }, 400),
    );
    await expect(client.exportPersonalData({ email: "" })).rejects.toMatchObject({ kind: "invalid_request" });
    expect(calls).toHaveLength(1);
  });
});
