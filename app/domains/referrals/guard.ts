import { GUARD_LABELS, GUARD_RULES, type GuardRule, type GuardSettings } from "./guard-settings";

// The referral guard: before an order is sent, the buyer is compared with
// the referrer of the code and with the shop's recent orders. Pure: the job
// gathers the facts, this decides.

/** The mailbox an email reaches: lower case, no +tag, and for Gmail no dots (Gmail ignores them). */
export function mailboxOf(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  if (at < 0) return trimmed;
  let local = trimmed.slice(0, at).split("+")[0]!;
  let domain = trimmed.slice(at + 1);
  if (domain === "googlemail.com") domain = "gmail.com";
  if (domain === "gmail.com") local = local.replace(/\./g, "");
  return `${local}@${domain}`;
}

/** A phone number's digits, the last ten (so +1 and national forms match). */
export function normalisePhone(phone: string): string {
  return phone.replace(/\D/g, "").slice(-10);
}

export interface BuyerSide {
  email: string;
  customerId?: string;
  address?: string;
  phone?: string;
  ip?: string;
  /** Orders of this customer the shop had before this one. */
  earlierOrders: number;
}

export interface ReferrerSide {
  email: string;
  /** The referrer's uid at the service and the Shopify customer ids of their own orders. */
  customerIds: string[];
  addresses: string[];
  phones: string[];
  /** Browser IPs of the referrer's own orders in this shop. */
  ips: string[];
}

export interface GuardFacts {
  buyer: BuyerSide;
  /** Unknown when the code's owner cannot be looked up before sending (a coupon). */
  referrer?: ReferrerSide;
  /** Referred orders in the last 24 hours from the buyer's IP, and with this code, this order left out. */
  referredFromIpToday: number;
  referredWithCodeToday: number;
}

export type Verdict = "passed" | "flagged" | "blocked" | "off" | "not_checked";

export interface RuleVerdict {
  rule: GuardRule;
  label: string;
  verdict: Verdict;
  /** What matched, or why the rule could not be checked. */
  detail?: string;
}

export interface GuardDecision {
  verdicts: RuleVerdict[];
  blockedBy: RuleVerdict[];
  flaggedBy: RuleVerdict[];
}

type Check = { hit: boolean; detail?: string } | { unknown: string };

function check(rule: GuardRule, facts: GuardFacts, limit: number): Check {
  const { buyer, referrer } = facts;
  const needReferrer = (test: (r: ReferrerSide) => { hit: boolean; detail?: string }): Check =>
    referrer ? test(referrer) : { unknown: "the code's owner is not known before the first order with it" };
  switch (rule) {
    case "self_email":
      return needReferrer((r) => ({ hit: mailboxOf(buyer.email) === mailboxOf(r.email), detail: `${buyer.email} is ${r.email}` }));
    case "self_customer":
      return needReferrer((r) => ({
        hit: buyer.customerId !== undefined && r.customerIds.includes(buyer.customerId),
        detail: `customer ${buyer.customerId}`,
      }));
    case "self_address":
      return needReferrer((r) => {
        if (buyer.address && r.addresses.includes(buyer.address)) return { hit: true, detail: "same shipping address" };
        const phone = buyer.phone ? normalisePhone(buyer.phone) : "";
        if (phone.length >= 7 && r.phones.map(normalisePhone).includes(phone)) return { hit: true, detail: "same phone number" };
        return { hit: false };
      });
    case "self_ip":
      return needReferrer((r) => ({ hit: buyer.ip !== undefined && r.ips.includes(buyer.ip), detail: `IP ${buyer.ip}` }));
    case "returning_customer":
      return { hit: buyer.earlierOrders > 0, detail: `${buyer.earlierOrders} earlier order${buyer.earlierOrders === 1 ? "" : "s"}` };
    case "velocity_ip":
      if (!buyer.ip) return { unknown: "the order has no browser IP" };
      return { hit: facts.referredFromIpToday >= limit, detail: `${atLeast(facts.referredFromIpToday, limit)} referred orders from ${buyer.ip} in 24 hours (limit ${limit})` };
    case "velocity_code":
      return { hit: facts.referredWithCodeToday >= limit, detail: `${atLeast(facts.referredWithCodeToday, limit)} orders with this code in 24 hours (limit ${limit})` };
  }
}

export function runGuard(settings: GuardSettings, facts: GuardFacts): GuardDecision {
  const verdicts = GUARD_RULES.map((rule): RuleVerdict => {
    const mode = settings.modes[rule];
    const label = GUARD_LABELS[rule];
    if (mode === "off") return { rule, label, verdict: "off" };
    const result = check(rule, facts, settings.dailyLimit);
    if ("unknown" in result) return { rule, label, verdict: "not_checked", detail: result.unknown };
    if (!result.hit) return { rule, label, verdict: "passed" };
    return { rule, label, verdict: mode === "block" ? "blocked" : "flagged", detail: result.detail };
  });
  return {
    verdicts,
    blockedBy: verdicts.filter((v) => v.verdict === "blocked"),
    flaggedBy: verdicts.filter((v) => v.verdict === "flagged"),
  };
}

/** The velocity facts are counted up to the limit only (see gatherGuardFacts). */
function atLeast(count: number, limit: number): string {
  return count >= limit ? `${limit} or more` : String(count);
}
