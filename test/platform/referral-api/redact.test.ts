import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { createReferralClient, redactServiceUrl, ReferralApiError } from "../../../app/platform/referral-api";
import { badRequest, fakeFetch, json, ok, recordingLogger } from "./support/fake-fetch";

const TOKEN = "Sup3rS3cretT0ken";
const URL_WITH_TOKEN = `http://svc.test/api/v2/demo/${TOKEN}/json/event/record/`;

/** Everything about an error a logger or a developer could see. */
function everything(error: unknown): string {
  const seen: string[] = [];
  let current: unknown = error;
  while (current) {
    if (current instanceof Error) seen.push(current.message, current.stack ?? "", JSON.stringify(current));
    seen.push(inspect(current, { depth: 10 }));
    current = (current as { cause?: unknown }).cause;
  }
  return seen.join("\n");
}

describe("redactServiceUrl", () => {
  it.each([
    [URL_WITH_TOKEN, "http://svc.test/api/v2/demo/[REDACTED]/json/event/record/"],
    [`GET /api/v2/demo/${TOKEN}/json/company/get/?x=1 failed`, "GET /api/v2/demo/[REDACTED]/json/company/get/?x=1 failed"],
    [`/api/v2/user%40shop/${encodeURIComponent("a/b?c")}/json/x/`, "/api/v2/user%40shop/[REDACTED]/json/x/"],
    [`/api/v2/demo/${TOKEN}`, "/api/v2/demo/[REDACTED]"],
    [`two: /api/v2/a/t1/json/ and /API/V2/b/t2/json/`, "two: /api/v2/a/[REDACTED]/json/ and /API/V2/b/[REDACTED]/json/"],
    [`"url":"http://h/api/v2/demo/${TOKEN}/json/x/"`, `"url":"http://h/api/v2/demo/[REDACTED]/json/x/"`],
    [`next=http%3A%2F%2Fh%2Fapi%2Fv2%2Fdemo%2F${TOKEN}%2Fjson%2F`, "next=http%3A%2F%2Fh%2Fapi%2Fv2%2Fdemo%2F[REDACTED]%2Fjson%2F"],
    ["nothing to hide /api/v3/demo/x/", "nothing to hide /api/v3/demo/x/"],
  ])("redacts %j", (input, expected) => {
    expect(redactServiceUrl(input)).toBe(expected);
  });
});

describe("the token never leaks", () => {
  it("not from a fetch error whose message and causes carry the URL", async () => {
    const { fetch } = fakeFetch(() => {
      const inner = Object.assign(new Error(`connect ECONNREFUSED while fetching ${URL_WITH_TOKEN}`), { code: "ECONNREFUSED" });
      throw new TypeError(`Failed to parse URL from ${URL_WITH_TOKEN} token=${TOKEN}`, { cause: inner });
    });
    const { logger, lines } = recordingLogger();
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "demo", token: TOKEN, fetch, logger });
    const error = await client.recordEvent({ email: "a@example.com", campaignUid: 1 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ReferralApiError);
    expect((error as ReferralApiError).kind).toBe("network");
    const seen = everything(error);
    expect(seen).not.toContain(TOKEN);
    expect(seen).toContain("[REDACTED]");
    expect(seen).toContain("ECONNREFUSED");
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it("not from a service answer that echoes the URL", async () => {
    const { fetch } = fakeFetch(
      badRequest([`Bad path ${URL_WITH_TOKEN}`]),
      new Response(`<html>404 for ${URL_WITH_TOKEN}</html>`, { status: 404 }),
      json({ response: { code: "200", data: { campaigns: [{ campaign_name: `no uid ${URL_WITH_TOKEN}` }] } } }),
    );
    const { logger, lines } = recordingLogger();
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "demo", token: TOKEN, fetch, logger });
    const errors = [
      await client.recordEvent({ email: "a@example.com" }).catch((e: unknown) => e),
      await client.getCompany().catch((e: unknown) => e),
      await client.getCompany().catch((e: unknown) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(ReferralApiError);
      expect(everything(error)).not.toContain(TOKEN);
    }
    expect((errors[0] as ReferralApiError).errors).toEqual(["Bad path http://svc.test/api/v2/demo/[REDACTED]/json/event/record/"]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it("not from a timeout", async () => {
    const client = createReferralClient({
      baseUrl: "http://svc.test",
      username: "demo",
      token: TOKEN,
      timeoutMs: 10,
      fetch: (url, init) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener("abort", () => reject(new DOMException(`aborted ${url}`, "AbortError"))),
        ),
    });
    const error = await client.getCompany().catch((e: unknown) => e);
    expect((error as ReferralApiError).kind).toBe("timeout");
    expect(everything(error)).not.toContain(TOKEN);
  });

  it("log lines name the operation, status and duration, never the token or the URL", async () => {
    const { fetch } = fakeFetch(ok({ groups: [] }), badRequest(["Invalid campaign_uid."]));
    const { logger, lines } = recordingLogger();
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "demo", token: TOKEN, fetch, logger });
    await client.listGroups();
    await client.addCommission({ uid: "u", campaignUid: "9", amount: 1 }).catch(() => undefined);

    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: "debug", obj: { operation: "group/all", method: "GET", status: 200 } });
    expect(typeof (lines[0].obj as { durationMs: unknown }).durationMs).toBe("number");
    expect(lines[1]).toMatchObject({
      level: "warn",
      obj: { operation: "commission/add", status: 400, kind: "invalid_request", retryable: false, errors: ["Invalid campaign_uid."] },
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("/api/v2/");
  });

  it("the company SSO token is not logged either", async () => {
    const { fetch } = fakeFetch(ok({ token: "sso-one-time-secret" }));
    const { logger, lines } = recordingLogger();
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "demo", token: TOKEN, fetch, logger });
    expect(await client.getCompanyToken()).toEqual({ token: "sso-one-time-secret" });
    expect(JSON.stringify(lines)).not.toContain("sso-one-time-secret");
  });
});
