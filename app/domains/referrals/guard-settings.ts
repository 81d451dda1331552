// The referral guard's rules and what a shop chose for each. Stored in
// Shop.guardRules as "rule=mode" pairs; a rule not named keeps its default.

export const GUARD_RULES = ["self_email", "self_customer", "self_address", "self_ip", "returning_customer", "velocity_ip", "velocity_code"] as const;
export type GuardRule = (typeof GUARD_RULES)[number];

export const GUARD_MODES = ["off", "flag", "block"] as const;
export type GuardMode = (typeof GUARD_MODES)[number];

/** Certain self-referrals are blocked; signs that may be innocent (a shared home, office network) are flagged for review. */
export const GUARD_DEFAULTS: Record<GuardRule, GuardMode> = {
  self_email: "block",
  self_customer: "block",
  self_address: "flag",
  self_ip: "flag",
  returning_customer: "off",
  velocity_ip: "flag",
  velocity_code: "off",
};

export const DEFAULT_DAILY_LIMIT = 5;

/** How the settings page and the activity page name each rule. */
export const GUARD_LABELS: Record<GuardRule, string> = {
  self_email: "Buyer's email is the referrer's",
  self_customer: "Buyer is the referrer's own customer account",
  self_address: "Buyer's shipping address or phone is the referrer's",
  self_ip: "Buyer ordered from an IP address the referrer used",
  returning_customer: "Buyer has ordered before (only first orders earn)",
  velocity_ip: "Too many referred orders from one IP address in a day",
  velocity_code: "Too many orders with one referral code in a day",
};

export interface GuardSettings {
  modes: Record<GuardRule, GuardMode>;
  /** More referred orders than this in 24 hours trips a velocity rule. */
  dailyLimit: number;
}

const isRule = (value: string): value is GuardRule => (GUARD_RULES as readonly string[]).includes(value);
const isMode = (value: string): value is GuardMode => (GUARD_MODES as readonly string[]).includes(value);

export function readGuardSettings(row: { guardRules?: string | null; guardDailyLimit?: number | null }): GuardSettings {
  const modes = { ...GUARD_DEFAULTS };
  for (const pair of (row.guardRules ?? "").split(",")) {
    const [rule, mode] = pair.split("=").map((part) => part.trim());
    if (rule && mode && isRule(rule) && isMode(mode)) modes[rule] = mode;
  }
  const limit = row.guardDailyLimit ?? DEFAULT_DAILY_LIMIT;
  return { modes, dailyLimit: Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_DAILY_LIMIT };
}

export function writeGuardRules(modes: Partial<Record<GuardRule, GuardMode>>): string {
  return GUARD_RULES.filter((rule) => modes[rule] !== undefined)
    .map((rule) => `${rule}=${modes[rule]}`)
    .join(",");
}
