import { describe, expect, it } from "vitest";
import { attempt, describeServiceError } from "../../../app/entry/admin/service-errors.server";
import { ReferralApiError, type ReferralApiErrorKind } from "../../../app/platform/referral-api";

const KINDS: ReferralApiErrorKind[] = [
  "authentication",
  "invalid_request",
  "duplicate_transaction",
  "rate_limited",
  "not_found",
  "server",
  "network",
  "timeout",
];

const error = (kind: ReferralApiErrorKind, errors: string[] = []) =>
  new ReferralApiError({ kind, operation: "company/get", errors });

describe("service errors in merchant words", () => {
  it.each(KINDS)("says what happened and what to do for %s", (kind) => {
    const words = describeServiceError(error(kind));
    expect(words.title.length).toBeGreaterThan(10);
    expect(words.message).toMatch(/\.$/);
    // No jargon of the client reaches the merchant.
    expect(`${words.title} ${words.message}`).not.toMatch(/company\/get|HTTP|ReferralApiError|undefined/);
    expect(words.retryable).toBe(error(kind).retryable);
  });

  it("sends refused credentials and an unreachable service to Settings", () => {
    expect(describeServiceError(error("authentication")).action).toEqual({ content: "Update credentials", url: "/app/settings" });
    expect(describeServiceError(error("network")).action?.url).toBe("/app/settings");
    expect(describeServiceError(error("server")).action).toBeUndefined();
  });

  it("names the timeout it waited and keeps the service's own words", () => {
    expect(describeServiceError(error("timeout"), 5_000).message).toContain("5 seconds");
    expect(describeServiceError(error("invalid_request", ["The start_date must not be after the end_date."])).details).toEqual([
      "The start_date must not be after the end_date.",
    ]);
  });

  it("turns only service failures into words; anything else is a bug and is thrown", async () => {
    await expect(attempt(() => Promise.reject(error("server")))).resolves.toMatchObject({
      ok: false,
      error: { title: "The referral service had a problem" },
    });
    await expect(attempt(() => Promise.resolve(42))).resolves.toEqual({ ok: true, value: 42 });
    await expect(attempt(() => Promise.reject(new TypeError("boom")))).rejects.toThrow("boom");
  });
});
