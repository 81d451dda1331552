import { describe, expect, it } from "vitest";
import {
  acceptDuplicate,
  createReferralClient,
  isDuplicateTransaction,
  ReferralApiError,
  settle,
  type ReferralApiErrorKind,
} from "../../../app/platform/referral-api";
import { badRequest, fakeFetch, json, ok } from "./support/fake-fetch";

function clientAnswering(answer: Response | (() => Response | Promise<Response>), timeoutMs = 1000) {
  const fake = fakeFetch(typeof answer === "function" ? answer : answer);
  return createReferralClient({ baseUrl: "http://svc.test", username: "demo", token: "tok-123456", fetch: fake.fetch, timeoutMs });
}

async function failure(answer: Response | (() => Response | Promise<Response>), timeoutMs?: number): Promise<ReferralApiError> {
  const client = clientAnswering(answer, timeoutMs);
  const error = await client.getCompany().then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReferralApiError);
  return error as ReferralApiError;
}

const AUTH_TEXT = "The user could not be authenticated.";
const env = (code: string, message: string, errors?: unknown) => ({ response: { code, message, ...(errors ? { errors } : {}) } });

describe("error classification", () => {
  const cases: [string, () => Response, ReferralApiErrorKind, Partial<ReferralApiError>][] = [
    ["HTTP 401 with envelope", () => json(env("401", "UNAUTHORIZED", { error: [AUTH_TEXT] }), 401), "authentication", { status: 401, code: "401", errors: [AUTH_TEXT] }],
    ["HTTP 403 without body", () => new Response("", { status: 403 }), "authentication", { status: 403 }],
    ["envelope code 401 under HTTP 200", () => json(env("401", "UNAUTHORIZED", { error: [AUTH_TEXT] })), "authentication", { status: 200 }],
    ["auth words under HTTP 400 code 400", () => badRequest([AUTH_TEXT]), "authentication", { errors: [AUTH_TEXT] }],
    ["auth words only in message under HTTP 200", () => json({ response: { code: "400", message: "User could not be authenticated" } }), "authentication", {}],
    ["auth words in a plain-text 400 page", () => new Response("Sorry, you could not be authenticated", { status: 400 }), "authentication", { errors: [] }],
    ["required parameter", () => badRequest(["The following POST parameter is required: email."]), "invalid_request", { status: 400, code: "400", errors: ["The following POST parameter is required: email."] }],
    ["400 code under HTTP 200", () => badRequest(["Invalid campaign_uid."], 200), "invalid_request", { status: 200, errors: ["Invalid campaign_uid."] }],
    ["errors as a flat array", () => json({ response: { code: "400", message: "BAD", errors: ["a", "b"] } }, 400), "invalid_request", { errors: ["a", "b"] }],
    ["errors as a string", () => json({ response: { code: 400, message: "BAD", errors: "only one" } }, 400), "invalid_request", { errors: ["only one"], code: "400" }],
    ["envelope at top level", () => json({ code: "400", message: "BAD", errors: { error: ["x"] } }, 400), "invalid_request", { errors: ["x"] }],
    ["duplicate transaction", () => badRequest(["A commission with this transaction_uid already exists for this campaign."]), "duplicate_transaction", {}],
    ["duplicate worded differently", () => badRequest(["Duplicate transaction."]), "duplicate_transaction", {}],
    ["duplicate, transaction id already exists", () => badRequest(["Transaction ID order-1 already exists."]), "duplicate_transaction", {}],
    ["HTTP 404", () => json(env("404", "NOT FOUND", { error: ["Not found."] }), 404), "not_found", { status: 404 }],
    ["code 404 under HTTP 200", () => json(env("404", "NOT FOUND")), "not_found", { errors: ["NOT FOUND"] }],
    ["HTML 404", () => new Response("<html>nope</html>", { status: 404 }), "not_found", {}],
    ["HTTP 429 with Retry-After", () => json(env("429", "TOO MANY REQUESTS", { error: ["Rate limit exceeded."] }), 429, { "retry-after": "7" }), "rate_limited", { retryAfterMs: 7000 }],
    ["code 429 under HTTP 200", () => json(env("429", "TOO MANY REQUESTS")), "rate_limited", {}],
    ["plain 429 without header", () => new Response("slow down", { status: 429 }), "rate_limited", { retryAfterMs: undefined }],
    ["HTTP 500 envelope", () => json(env("500", "INTERNAL SERVER ERROR", { error: ["boom"] }), 500), "server", { status: 500, errors: ["boom"] }],
    ["HTTP 503 HTML", () => new Response("<h1>Service Unavailable</h1>", { status: 503, headers: { "retry-after": "3" } }), "server", { status: 503, retryAfterMs: 3000 }],
    ["HTTP 502 empty", () => new Response(null, { status: 502 }), "server", {}],
    ["code 500 under HTTP 200", () => json(env("500", "ERR")), "server", {}],
    ["non-JSON 200", () => new Response("<html>hello</html>", { status: 200 }), "server", { status: 200 }],
    ["truncated JSON 200", () => new Response('{"response": {"code": "200", "da', { status: 200 }), "server", {}],
    ["JSON 200 that is not an envelope", () => json({ hello: "world" }), "server", {}],
    ["JSON 200 array", () => json([1, 2]), "server", {}],
    ["success without usable data", () => ok({ company: {}, campaigns: [{ campaign_name: "no uid" }] }), "server", { status: 200 }],
  ];

  it.each(cases)("%s → %s", async (_name, answer, kind, fields) => {
    const error = await failure(answer);
    expect(error.kind).toBe(kind);
    expect(error.operation).toBe("company/get");
    expect(error.retryable).toBe(["network", "timeout", "server", "rate_limited"].includes(kind));
    expect(error).toMatchObject(fields);
    expect(error.message).toContain("company/get");
  });

  it("a failing fetch is a retryable network error", async () => {
    const error = await failure(() => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });
    });
    expect(error).toMatchObject({ kind: "network", retryable: true, errors: [] });
    expect(error.message).toContain("other side closed");
    expect((error.cause as { code?: string }).code).toBe("UND_ERR_SOCKET");
  });

  it("a body that breaks off while reading is a network error", async () => {
    const error = await failure(() => {
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"response":'));
          controller.error(new Error("terminated"));
        },
      });
      return new Response(stream, { status: 200 });
    });
    expect(error.kind).toBe("network");
  });

  it("no answer within timeoutMs is a timeout, and the request is aborted", async () => {
    let aborted = false;
    const client = createReferralClient({
      baseUrl: "http://svc.test",
      username: "demo",
      token: "tok",
      timeoutMs: 30,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => {
            aborted = true;
            reject(new DOMException("This operation was aborted", "AbortError"));
          });
        }),
    });
    const error = (await client.listGroups().catch((e: unknown) => e)) as ReferralApiError;
    expect(error).toMatchObject({ kind: "timeout", retryable: true, operation: "group/all" });
    expect(error.message).toContain("30 ms");
    expect(aborted).toBe(true);
  });

  it("the timeout holds even for a fetch that ignores its signal", async () => {
    const client = createReferralClient({
      baseUrl: "http://svc.test",
      username: "demo",
      token: "tok",
      timeoutMs: 20,
      fetch: () => new Promise<Response>((resolve) => setTimeout(() => resolve(ok({ groups: [] })), 300)),
    });
    const started = Date.now();
    await expect(client.listGroups()).rejects.toMatchObject({ kind: "timeout" });
    expect(Date.now() - started).toBeLessThan(250);
  });

  it("a body that never finishes arriving times out", async () => {
    const client = createReferralClient({
      baseUrl: "http://svc.test",
      username: "demo",
      token: "tok",
      timeoutMs: 30,
      fetch: async (_url, init) =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"response":'));
              init.signal?.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
            },
          }),
          { status: 200 },
        ),
    });
    await expect(client.listGroups()).rejects.toMatchObject({ kind: "timeout", retryable: true });
  });

  it("HTTP-date Retry-After is read too", async () => {
    const at = new Date(Date.now() + 5000).toUTCString();
    const error = await failure(() => new Response("", { status: 429, headers: { "retry-after": at } }));
    expect(error.retryAfterMs).toBeGreaterThan(2000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(5000);
  });
});

describe("duplicates and results", () => {
  const duplicate = () => badRequest(["A commission with this transaction_uid already exists for this campaign."]);

  it("isDuplicateTransaction recognises only duplicate errors", async () => {
    const error = await failure(duplicate);
    expect(isDuplicateTransaction(error)).toBe(true);
    expect(isDuplicateTransaction(await failure(() => badRequest(["Invalid campaign_uid."])))).toBe(false);
    expect(isDuplicateTransaction(new Error("transaction already exists"))).toBe(false);
  });

  it("acceptDuplicate turns a duplicate recordEvent into success and rethrows others", async () => {
    const fake = fakeFetch(duplicate(), ok({ ambassador: { email: "b@example.com" } }), badRequest(["The following POST parameter is required: email."]));
    const client = createReferralClient({ baseUrl: "http://svc.test", username: "u", token: "t", fetch: fake.fetch });
    const first = await acceptDuplicate(client.recordEvent({ email: "b@example.com", campaignUid: 1, transactionUid: "o1" }));
    expect(first.duplicate).toBe(true);
    const second = await acceptDuplicate(client.recordEvent({ email: "b@example.com", campaignUid: 1, transactionUid: "o2" }));
    expect(second).toMatchObject({ duplicate: false, value: { ambassador: { email: "b@example.com" } } });
    await expect(acceptDuplicate(client.recordEvent({ email: "", campaignUid: 1 }))).rejects.toMatchObject({ kind: "invalid_request" });
  });

  it("settle returns a result object for service errors and rethrows bugs", async () => {
    const client = clientAnswering(json(env("500", "ERR"), 500));
    const result = await settle(client.listGroups());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.retryable).toBe(true);
    expect(await settle(Promise.resolve(5))).toEqual({ ok: true, value: 5 });
    await expect(settle(Promise.reject(new TypeError("bug")))).rejects.toThrow("bug");
  });
});
