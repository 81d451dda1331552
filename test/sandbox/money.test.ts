import { describe, expect, it } from "vitest";
import { formatCents, parseCents, parsePercent, percentOfCents, percentOfCentsAsPoints } from "../../sandbox/money";
import { parseFilterDate } from "../../sandbox/dates";
import { rewardAmount } from "../../sandbox/domain/commissions";

describe("money", () => {
  it.each([
    ["12.345", 1235],
    ["12.344", 1234],
    ["0.005", 1],
    ["7", 700],
    [".5", 50],
    ["-1.005", -101],
  ])("parses %s to %i cents, half-up", (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });

  it.each([
    [12345, "10", 1235], // 12.345 -> 12.35
    [5, "10", 1], // 0.005 -> 0.01
    [4, "10", 0],
    [1003, "20", 201], // 2.006 -> 2.01
    [10000, "2.5", 250],
    [333, "33.3333", 111], // 110.99989 -> 111
  ])("%i cents x %s%% = %i cents", (revenue, percent, expected) => {
    expect(percentOfCents(revenue, parsePercent(percent))).toBe(expected);
  });

  it("rounds percentage points to whole points", () => {
    expect(percentOfCentsAsPoints(12345, parsePercent("2"))).toBe(2); // 2.469
    expect(percentOfCentsAsPoints(12500, parsePercent("2"))).toBe(3); // 2.5
  });

  it("formats cents", () => {
    expect([formatCents(0), formatCents(5), formatCents(1234), formatCents(-5)]).toEqual(["0.00", "0.05", "12.34", "-0.05"]);
  });

  it("computes each reward type", () => {
    expect(rewardAmount({ type: "P", amount: "10" }, 12345)).toEqual({ unit: "money", hundredths: 1235 });
    expect(rewardAmount({ type: "F", amount: "15.00" }, 12345)).toEqual({ unit: "money", hundredths: 1500 });
    expect(rewardAmount({ type: "N", amount: "2" }, 12345)).toEqual({ unit: "points", hundredths: 200 });
    expect(rewardAmount({ type: "M", amount: "50" }, 0)).toEqual({ unit: "points", hundredths: 5000 });
    expect(rewardAmount({ type: "D", amount: "0" }, 12345)).toBeNull();
  });
});

describe("filter dates", () => {
  it("reads bare dates and ISO date-times, UTC when no offset is given", () => {
    expect(parseFilterDate("2024-02-05")).toEqual({ ms: Date.UTC(2024, 1, 5), dateOnly: true });
    expect(parseFilterDate("2024-02-05T09:30:00")).toEqual({ ms: Date.UTC(2024, 1, 5, 9, 30), dateOnly: false });
    expect(parseFilterDate("2024-02-05T09:30:00+0200")?.ms).toBe(Date.UTC(2024, 1, 5, 7, 30));
    expect(parseFilterDate("2024-02-30")).toBeUndefined();
    expect(parseFilterDate("yesterday")).toBeUndefined();
  });
});
