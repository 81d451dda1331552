import { describe, expect, it } from "vitest";
import {
  addMoney,
  compareMoney,
  moneyFromCents,
  moneyToCents,
  parseMoney,
  subtractMoney,
  tryParseMoney,
} from "../../../app/platform/referral-api";
import { minorUnitsOf, toMinorUnit } from "../../../app/platform/referral-api/money";

describe("money", () => {
  it.each([
    ["12.5", "12.50"],
    ["12.50", "12.50"],
    ["0012.500", "12.50"],
    ["1.125", "1.125"],
    ["0", "0.00"],
    ["-0.00", "0.00"],
    ["-3", "-3.00"],
    [".5", "0.50"],
    ["5.", "5.00"],
    [" 7.10 ", "7.10"],
    ["+4.2", "4.20"],
    ["1e3", "1000.00"],
    ["1.5E-3", "0.0015"],
    ["123456789012345678901234567890.01", "123456789012345678901234567890.01"],
  ])("parses %j as %j", (input, expected) => {
    expect(parseMoney(input)).toBe(expected);
  });

  it.each([
    [19.99, "19.99"],
    [0.1, "0.10"],
    [15, "15.00"],
    [1e-7, "0.0000001"],
    [-2.5, "-2.50"],
  ])("parses the number %j as %j without float drift", (input, expected) => {
    expect(parseMoney(input)).toBe(expected);
  });

  it("adds exactly: 0.1 + 0.2 = 0.30", () => {
    expect(addMoney("0.1", "0.2")).toBe("0.30");
    expect(addMoney(0.1, 0.2)).toBe("0.30");
    expect(addMoney("19.99", 0.01)).toBe("20.00");
    expect(subtractMoney("10.00", "10.01")).toBe("-0.01");
    expect(subtractMoney("10", "10")).toBe("0.00");
  });

  it("sums many small amounts exactly", () => {
    let total = parseMoney(0);
    for (let i = 0; i < 1000; i += 1) total = addMoney(total, "0.01");
    expect(total).toBe("10.00");
  });

  it("compares", () => {
    expect(compareMoney("10.5", "10.50")).toBe(0);
    expect(compareMoney("9.99", "10")).toBe(-1);
    expect(compareMoney("-1", "-2")).toBe(1);
    expect(compareMoney("1.005", 1)).toBe(1);
  });

  it("converts to and from cents", () => {
    expect(moneyToCents("12.34")).toBe(1234n);
    expect(moneyToCents("12.3")).toBe(1230n);
    expect(moneyToCents(19.99)).toBe(1999n);
    expect(moneyToCents("1.005")).toBe(101n);
    expect(moneyToCents("1.004")).toBe(100n);
    expect(moneyToCents("-1.005")).toBe(-101n);
    expect(moneyFromCents(1999n)).toBe("19.99");
    expect(moneyFromCents(-5)).toBe("-0.05");
    expect(moneyFromCents(0)).toBe("0.00");
    expect(() => moneyFromCents(1.5)).toThrow(RangeError);
  });

  it("rejects what is not a decimal", () => {
    for (const bad of ["", "abc", "1,50", "1.2.3", "-", ".", "N/A", "12 EUR"]) {
      expect(tryParseMoney(bad)).toBeNull();
      expect(() => parseMoney(bad)).toThrow(RangeError);
    }
    expect(tryParseMoney(null)).toBeNull();
    expect(tryParseMoney(Number.NaN)).toBeNull();
    expect(tryParseMoney(Infinity)).toBeNull();
    expect(() => addMoney("x", "1")).toThrow(RangeError);
  });

  it("rounds to a currency's minor unit, half away from zero, with exactly its decimals", () => {
    expect(["JPY", "KRW", "USD", "EUR", "KWD", "BHD"].map(minorUnitsOf)).toEqual([0, 0, 2, 2, 3, 3]);
    expect(toMinorUnit("1500.5", "JPY")).toBe("1501");
    expect(toMinorUnit("1500.49", "JPY")).toBe("1500");
    expect(toMinorUnit("12", "JPY")).toBe("12");
    expect(toMinorUnit("5.1256", "KWD")).toBe("5.126");
    expect(toMinorUnit("5", "KWD")).toBe("5.000");
    expect(toMinorUnit("7.125", "USD")).toBe("7.13");
    expect(toMinorUnit(19.99, "USD")).toBe("19.99");
    expect(toMinorUnit("-2.675", "USD")).toBe("-2.68");
    expect(toMinorUnit("0.004", "USD")).toBe("0.00");
    expect(() => toMinorUnit("1", "DOLLARS")).toThrow(RangeError);
  });
});
