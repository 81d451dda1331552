import type { Money } from "./money";
import type { RewardTypeCode } from "./types";

export interface RewardType {
  code: RewardTypeCode;
  /** e.g. "percentage monetary" */
  label: string;
  basis: "percentage" | "flat" | "none" | "unknown";
  unit: "money" | "points" | "none" | "unknown";
}

const TYPES: Record<string, Omit<RewardType, "code">> = {
  P: { label: "percentage monetary", basis: "percentage", unit: "money" },
  F: { label: "flat monetary", basis: "flat", unit: "money" },
  N: { label: "percentage non-monetary", basis: "percentage", unit: "points" },
  M: { label: "flat non-monetary", basis: "flat", unit: "points" },
  D: { label: "none", basis: "none", unit: "none" },
};

/** The meaning of a reward type code (P, F, N, M, D). */
export function decodeRewardType(code: RewardTypeCode): RewardType {
  const known = TYPES[code.trim().toUpperCase()];
  return { code, ...(known ?? { label: `unknown reward type ${code}`, basis: "unknown", unit: "unknown" }) };
}

function plainAmount(amount: Money): string {
  return amount.replace(/\.00$/, "");
}

/**
 * A reward in words for the admin: "10% of revenue", "15.00 flat", "2% of
 * revenue in points", "50 points", "no reward". `pointName` is the company's
 * name for its point unit; `currency` is put before flat money amounts.
 */
export function describeReward(
  reward: { typeCode: RewardTypeCode; amount: Money | null },
  { pointName = "points", currency = "" }: { pointName?: string; currency?: string } = {},
): string {
  const type = decodeRewardType(reward.typeCode);
  const amount = reward.amount;
  if (type.basis === "none") return "no reward";
  if (type.basis === "unknown" || amount === null) return type.label;
  if (type.basis === "percentage") {
    return type.unit === "money" ? `${plainAmount(amount)}% of revenue` : `${plainAmount(amount)}% of revenue in ${pointName}`;
  }
  return type.unit === "money" ? `${currency}${amount} flat` : `${plainAmount(amount)} ${pointName}`;
}
