import { describe, expect, it } from "vitest";
import { decodeRewardType, describeReward, parseMoney } from "../../../app/platform/referral-api";

describe("rewards", () => {
  it.each([
    ["P", "10", {}, "10% of revenue"],
    ["F", "15", {}, "15.00 flat"],
    ["F", "15", { currency: "$" }, "$15.00 flat"],
    ["N", "2", { pointName: "stars" }, "2% of revenue in stars"],
    ["M", "50", {}, "50 points"],
    ["M", "50", { pointName: "stars" }, "50 stars"],
    ["D", "0", {}, "no reward"],
    ["p", "12.5", {}, "12.50% of revenue"],
  ])("%s %s → %s", (code, amount, options, expected) => {
    expect(describeReward({ typeCode: code, amount: parseMoney(amount) }, options)).toBe(expected);
  });

  it("decodes every type code to words", () => {
    expect(decodeRewardType("P")).toEqual({ code: "P", label: "percentage monetary", basis: "percentage", unit: "money" });
    expect(decodeRewardType("F").label).toBe("flat monetary");
    expect(decodeRewardType("N").label).toBe("percentage non-monetary");
    expect(decodeRewardType("M").label).toBe("flat non-monetary");
    expect(decodeRewardType("D").label).toBe("none");
    expect(decodeRewardType("Z")).toMatchObject({ basis: "unknown", label: "unknown reward type Z" });
    expect(describeReward({ typeCode: "Z", amount: null })).toBe("unknown reward type Z");
  });
});
