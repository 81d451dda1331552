import { describe, expect, it } from "vitest";
import { parseFlag, parseNumber } from "../../../app/platform/referral-api";

describe("flags", () => {
  it.each([
    [1, true],
    [0, false],
    ["1", true],
    ["0", false],
    [true, true],
    [false, false],
    ["true", true],
    ["false", false],
    ["True", true],
    [" 1 ", true],
    ["yes", true],
    ["no", false],
  ])("reads %j as %j", (input, expected) => {
    expect(parseFlag(input)).toBe(expected);
  });

  it.each([[null], [undefined], [""], ["2"], [2], ["maybe"], [{}]])("gives null for %j", (input) => {
    expect(parseFlag(input)).toBeNull();
  });
});

describe("numbers", () => {
  it.each([
    ["12", 12],
    [12, 12],
    ["0", 0],
    ["3.5", 3.5],
    [" 7 ", 7],
    ["-1", -1],
  ])("reads %j as %j", (input, expected) => {
    expect(parseNumber(input)).toBe(expected);
  });

  it.each([["N/A"], [""], [null], [undefined], ["12abc"], [Number.NaN], [{}]])("gives null for %j", (input) => {
    expect(parseNumber(input)).toBeNull();
  });
});
