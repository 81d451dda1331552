import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dataOf, errorsOf, startTestSandbox, type TestSandbox } from "./helpers";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.sandbox.close());
beforeEach(() => t.sandbox.reset());

describe("compliance/export", () => {
  it("returns the personal data document without the envelope", async () => {
    await t.call("event/record", { email: "erin@example.com", campaign_uid: "1001", ip_address: "198.51.100.4", revenue: "10" });
    await t.call("ambassador/update", { email: "erin@example.com", send_welcome_email: "1" });

    const { status, body } = await t.call("compliance/export", { email: "erin@example.com" });

    expect(status).toBe(200);
    expect(body).not.toHaveProperty("response");
    expect(Object.keys(body).sort()).toEqual(["emails", "fingerprints", "ip_addresses", "profile", "satisfaction_surveys", "social_data"]);
    expect(body.profile).toMatchObject({ first_name: "Erin", last_name: "Evans", full_name: "Erin Evans", email: "erin@example.com", backup_email: null });
    expect(Object.keys(body.profile)).toEqual([
      "first_name", "last_name", "full_name", "email", "backup_email", "phone", "company", "job_title", "street", "city",
      "state", "zip", "country", "satisfaction_score", "payservice1_email", "payservice2_email", "avatar_url",
    ]);
    expect(body.ip_addresses).toEqual(["198.51.100.4"]);
    expect(body.fingerprints[0]).toMatchObject({ ip_addresses: ["198.51.100.4"], devices: [] });
    expect(body.satisfaction_surveys).toEqual([]);
    expect(body.social_data).toMatchObject({ bio: null, twitter_username: null, influence_score: null });
    expect(body.emails).toEqual([expect.objectContaining({ recipient: "erin@example.com", subject: expect.any(String), date: expect.any(String) })]);
  });

  it("answers 404 for a person it does not know", async () => {
    const { status, body } = await t.call("compliance/export", { email: "stranger@example.com" });
    expect(status).toBe(404);
    expect(body.response.code).toBe("404");
  });

  it("limits exports to 6 per rolling minute with 429 and Retry-After", async () => {
    for (let i = 0; i < 6; i++) {
      expect((await t.call("compliance/export", { email: "alice@example.com" })).status).toBe(200);
    }
    const seventh = await t.call("compliance/export", { email: "alice@example.com" });

    expect(seventh.status).toBe(429);
    expect(seventh.body.response).toMatchObject({ code: "429", message: "TOO MANY REQUESTS: Rate limit exceeded." });
    const retryAfter = Number(seventh.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    t.sandbox.reset(); // the window belongs to the account state
    expect((await t.call("compliance/export", { email: "alice@example.com" })).status).toBe(200);
  });
});

describe("compliance/remove", () => {
  it("needs confirm=1", async () => {
    const missing = await t.call("compliance/remove", { email: "dan@example.com" });
    expect(errorsOf(missing.body)).toEqual(["The following POST parameter is required: confirm."]);
    const wrong = await t.call("compliance/remove", { email: "dan@example.com", confirm: "0" });
    expect(wrong.status).toBe(400);
    expect((await t.call("ambassador/get", { email: "dan@example.com" })).status).toBe(200);
  });

  it("erases the person: profile gone, their email anonymised in commissions they were referred in", async () => {
    const { status, body } = await t.call("compliance/remove", { email: "dan@example.com", confirm: "1" });

    expect(status).toBe(200);
    expect(dataOf(body)).toEqual({});
    expect((await t.call("ambassador/get", { email: "dan@example.com" })).status).toBe(404);
    expect((await t.call("shortcode/get", { short_code: "DAN10" })).status).toBe(404);
    const seeded = dataOf((await t.call("commission/all", {})).body).commissions.find((c: { commission_uid: string }) => c.commission_uid === "5001");
    expect(seeded.remote_customer_email).not.toContain("dan");
    expect(seeded.commission_amount).toBe("12.00"); // alice keeps her earnings
    expect((await t.call("compliance/export", { email: "dan@example.com" })).status).toBe(404);
    const ledger = JSON.stringify((await t.control("/ledger")).body.commissions);
    expect(ledger).not.toContain("dan@example.com");
  });

  it("erasing a referrer removes their codes and coupons", async () => {
    await t.call("compliance/remove", { email: "alice@example.com", confirm: "1" });
    const coupon = await t.call("event/record", { email: "q@example.com", campaign_uid: "1001", coupon_code: "ALICE-15" });
    expect(errorsOf(coupon.body)).toEqual(["The coupon_code ALICE-15 does not exist."]);
    const again = await t.call("compliance/remove", { email: "alice@example.com", confirm: "1" });
    expect(again.status).toBe(200); // idempotent
  });
});
