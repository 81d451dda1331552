import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEED } from "../../sandbox/seed";
import { BAD_REQUEST, OK, dataOf, errorsOf, startTestSandbox, type TestSandbox } from "./helpers";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.sandbox.close());
beforeEach(() => t.sandbox.reset());

describe("the v2 envelope", () => {
  it("wraps success data with code 200 and the documented message", async () => {
    const { status, body } = await t.call("company/get");

    expect(status).toBe(200);
    expect(body.response.code).toBe("200");
    expect(body.response.message).toBe(OK);
    expect(body.response.data.company).toEqual(SEED.company);
    const uids = body.response.data.campaigns.map((c: { campaign_uid: string }) => c.campaign_uid);
    expect(uids).toEqual(["1001", "1002", "1003", "1004"]); // 1005 has ended
  });

  it("describes the seeded campaigns with string flags and reward objects", async () => {
    const campaigns = dataOf((await t.call("company/get")).body).campaigns;
    const [family, vip, points, test] = campaigns;

    expect(family).toMatchObject({
      campaign_name: "Friends & Family",
      initial_reward: { type_code: "P", amount: "10" },
      recurring_reward: { type_code: "P", amount: "5" },
      auto_approve_commissions: "0",
      sandbox: "0",
      private: "0",
      social_enabled: "1",
      landing_page: "https://demo-outfitters.example/",
      required_query_params: "mbsy={short_code}&campaignid={campaign_uid}",
      end_date: null,
    });
    expect(family.start_date).toMatch(/^\d+$/);
    expect(vip).toMatchObject({
      campaign_name: "VIP Flat Reward",
      initial_reward: { type_code: "F", amount: "15.00" },
      recurring_reward: { type_code: "D" },
      auto_approve_commissions: "1",
      private: "1",
      social_enabled: "0",
    });
    expect(vip).not.toHaveProperty("required_query_params");
    expect(points).toMatchObject({ initial_reward: { type_code: "M", amount: "50" }, recurring_reward: { type_code: "N", amount: "2" } });
    expect(test).toMatchObject({ sandbox: "1", initial_reward: { type_code: "P", amount: "20" }, auto_approve_commissions: "1" });
  });

  it("accepts the path without trailing slash, the other method and a JSON body", async () => {
    const withoutSlash = await fetch(t.v2Url("ambassador/get").replace(/\/$/, "") + "?email=alice@example.com");
    expect(withoutSlash.status).toBe(200);

    const postForGet = await fetch(t.v2Url("ambassador/get"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bob@example.com" }),
    });
    const body = await postForGet.json();
    expect(body.response.data.ambassador.uid).toBe("amb-bob");

    const getForPost = await t.call("commission/all", { is_approved: "2" }, "GET");
    expect(dataOf(getForPost.body).commissions.map((c: { commission_uid: string }) => c.commission_uid)).toEqual(["5003"]);
  });
});

describe("400 errors use the document's texts", () => {
  const cases: [string, string, Record<string, string>, string][] = [
    ["one missing POST parameter", "event/record", { campaign_uid: "1001", short_code: "ALICE10" }, "The following POST parameter is required: email."],
    [
      "several missing parameters",
      "event/record",
      {},
      "The following GET/POST parameters are required: email, campaign_uid or product_id.",
    ],
    ["one missing GET parameter", "ambassador/get", {}, "The following GET/POST parameter is required: email."],
    ["ambassador not identified", "ambassador/update", { first_name: "X" }, "The following POST parameter is required: uid or email."],
    ["commission not identified", "commission/update", { is_approved: "1" }, "The following GET/POST parameter is required: commission_uid or transaction_uid."],
    ["balance parameters", "balance/deduct", { email: "alice@example.com" }, "The following GET/POST parameters are required: email, type, amount."],
    ["ambassador/all not numbers", "ambassador/all", { page: "two", min_money: "lots" }, 'The following POST parameters are not numbers. "page", "min_money"'],
    ["group/get not numbers", "group/get", { group_id: "vip" }, 'The following GET/POST parameters are not numbers. "group_id"'],
    ["commission not pending", "commission/update", { commission_uid: "5001", is_approved: "2" }, "You can change state of pending commission only."],
    ["unknown campaign in commission/add", "commission/add", { email: "alice@example.com", campaign_uid: "9999", amount: "5" }, "Invalid campaign_uid."],
  ];

  it.each(cases)("%s", async (_name, operation, params, expected) => {
    const { status, body } = await t.call(operation, params);

    expect(status).toBe(400);
    expect(body.response.code).toBe("400");
    expect(body.response.message).toBe(BAD_REQUEST);
    expect(errorsOf(body)).toEqual([expected]);
  });

  it("answers a malformed JSON body with a 400 envelope", async () => {
    const response = await fetch(t.v2Url("event/record"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body.response.code).toBe("400");
    expect(errorsOf(body)).toEqual(["The request body is not valid JSON."]);
  });
});

describe("other statuses", () => {
  it("rejects wrong credentials with 401", async () => {
    const response = await fetch(`${t.sandbox.baseUrl}/api/v2/demo/wrong-token/json/company/get/`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      response: {
        code: "401",
        message: "UNAUTHORIZED: The request could not be authenticated.",
        errors: { error: ["The user could not be authenticated."] },
      },
    });
  });

  it("answers 404 for an unknown ambassador, short code, commission and operation", async () => {
    const checks = await Promise.all([
      t.call("ambassador/get", { email: "nobody@example.com" }),
      t.call("shortcode/get", { short_code: "NOPE" }),
      t.call("commission/update", { transaction_uid: "no-such-order", is_approved: "1" }),
      t.call("ambassador/teleport"),
    ]);
    for (const { status, body } of checks) {
      expect(status).toBe(404);
      expect(body.response.code).toBe("404");
      expect(body.response.message).toBe("NOT FOUND: The requested resource does not exist.");
      expect(errorsOf(body)).toHaveLength(1);
    }
    expect(errorsOf(checks[0].body)[0]).toContain("nobody@example.com");
  });

  it("refuses methods other than GET and POST", async () => {
    const response = await fetch(t.v2Url("company/get"), { method: "PUT" });
    expect(response.status).toBe(405);
    expect((await response.json()).response.code).toBe("405");
  });
});

describe("string|number variance", () => {
  it("answers sandbox as a boolean for ambassador/get with auto_create=1 and no sandbox parameter", async () => {
    const created = dataOf((await t.call("ambassador/get", { email: "new@example.com", auto_create: "1" })).body);
    expect(created.ambassador.sandbox).toBe(false);

    const withParam = dataOf((await t.call("ambassador/get", { email: "new2@example.com", auto_create: "1", sandbox: "1" })).body);
    expect(withParam.ambassador.sandbox).toBe("1");

    const plain = dataOf((await t.call("ambassador/get", { email: "alice@example.com" })).body);
    expect(plain.ambassador).toMatchObject({ sandbox: "0", balance_money: "12.00", balance_points: "0", unique_referrals: "3" });
    expect(plain.ambassador.created_at).toBe("2024-02-01T10:00:00+0000");
  });
});
