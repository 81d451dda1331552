import { describe, expect, it } from "vitest";
import { formatServiceDate, parseServiceDate, parseUnixSeconds } from "../../../app/platform/referral-api";

const iso = (value: unknown) => parseServiceDate(value)?.toISOString() ?? null;

describe("dates", () => {
  it.each([
    ["2024-03-01T10:20:30+0000", "2024-03-01T10:20:30.000Z"],
    ["2024-03-01T10:20:30.123456+0000", "2024-03-01T10:20:30.123Z"],
    ["2024-03-01T10:20:30.5+0000", "2024-03-01T10:20:30.500Z"],
    ["2024-03-01T12:20:30+0200", "2024-03-01T10:20:30.000Z"],
    ["2024-03-01T05:20:30-05:00", "2024-03-01T10:20:30.000Z"],
    ["2024-03-01T10:20:30Z", "2024-03-01T10:20:30.000Z"],
    ["2024-03-01T10:20:30", "2024-03-01T10:20:30.000Z"],
    ["2024-03-01 10:20:30.123", "2024-03-01T10:20:30.123Z"],
    ["2024-03-01 10:20:30", "2024-03-01T10:20:30.000Z"],
    ["2024-03-01", "2024-03-01T00:00:00.000Z"],
    ["1700000000", "2023-11-14T22:13:20.000Z"],
  ])("reads %j", (input, expected) => {
    expect(iso(input)).toBe(expected);
  });

  it.each([[""], ["   "], ["0000-00-00 00:00:00"], ["2024-02-30"], ["2024-13-01"], ["not a date"], [null], [undefined], [{}]])(
    "gives null for %j",
    (input) => {
      expect(parseServiceDate(input)).toBeNull();
    },
  );

  it("reads Unix seconds from strings and numbers, and null end dates", () => {
    expect(parseUnixSeconds("1704067200")?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(parseUnixSeconds(1704067200)?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(parseUnixSeconds(null)).toBeNull();
    expect(parseUnixSeconds("")).toBeNull();
    expect(parseUnixSeconds("0")).toBeNull();
    // A variant sending a date string instead still works.
    expect(parseUnixSeconds("2024-01-01")?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
  });

  it("formats dates for parameters as YYYY-MM-DD in UTC", () => {
    expect(formatServiceDate(new Date("2024-05-06T23:59:00Z"))).toBe("2024-05-06");
    expect(formatServiceDate("2024-05-06")).toBe("2024-05-06");
  });
});
