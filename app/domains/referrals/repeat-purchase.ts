import { z } from "zod";
import { mailboxOf } from "./guard";
import type { OrderPayload } from "./order-payload";
import { commaList } from "../../platform/text/comma-list";

// Later orders of a referred customer. The referral service credits an
// event of a customer already referred in a campaign to the first referrer,
// on the campaign's recurring reward, without a code; so the app sends such
// an order (even under "only orders with a referral code"), as the
// campaign's policy allows. Pure: the intake and the order's job read what
// this needs (ReferredCustomer rows, the campaign's recurring reward).

/** Which later orders of a referred customer a campaign sends. */
export const REPEAT_POLICIES = ["as_paid", "renewals_only", "first_n", "first_only"] as const;
export type RepeatPolicyName = (typeof REPEAT_POLICIES)[number];

export const repeatPolicySchema = z.object({
  policy: z.enum(REPEAT_POLICIES),
  /** For first_n: how many renewals earn. */
  firstN: z.number().int().min(1).max(1000).optional(),
});
export type RepeatPolicy = z.infer<typeof repeatPolicySchema>;

export const DEFAULT_REPEAT_POLICY: RepeatPolicy = { policy: "as_paid" };

/** The shop's policies by campaign, from Shop.repeatPolicies; a campaign not named, or named wrongly, pays as the campaign does. */
export function readRepeatPolicies(text: string | null | undefined): Record<string, RepeatPolicy> {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (!value || typeof value !== "object") return {};
  const policies: Record<string, RepeatPolicy> = {};
  for (const [uid, raw] of Object.entries(value)) {
    const parsed = repeatPolicySchema.safeParse(raw);
    if (parsed.success && (parsed.data.policy !== "first_n" || parsed.data.firstN)) policies[uid] = parsed.data;
  }
  return policies;
}

export const policyOf = (policies: Record<string, RepeatPolicy>, campaignUid: string): RepeatPolicy => policies[campaignUid] ?? DEFAULT_REPEAT_POLICY;

/** A policy in the merchant's words, as the Campaigns page and the explanations name it. */
export function policyWords(policy: RepeatPolicy): string {
  switch (policy.policy) {
    case "as_paid":
      return "every later order, as the campaign pays";
    case "renewals_only":
      return "subscription renewals only";
    case "first_n":
      return `the first ${policy.firstN} subscription ${policy.firstN === 1 ? "renewal" : "renewals"}`;
    case "first_only":
      return "the first order only";
  }
}

/** How a customer is found in ReferredCustomer: by Shopify customer id, and by email as the guard compares mailboxes. */
export function customerKeys(customerId: string | null | undefined, email: string | null | undefined): string[] {
  const keys: string[] = [];
  if (customerId) keys.push(`c:${customerId}`);
  if (email?.trim()) keys.push(`e:${mailboxOf(email)}`);
  return keys;
}

/** Source names Shopify gives orders a subscription contract made: the first until October 2025, the second since. */
const SUBSCRIPTION_SOURCES = ["subscription_contract", "subscription_contract_checkout_one"];

/**
 * Signals of subscription apps: Recharge tags its renewals "Subscription
 * Recurring Order" (and first orders "Subscription First Order", which is
 * no renewal); Skio adds the note attribute subscription_provider to the
 * renewals it places. Other apps: the merchant's own rule (a tag or a note
 * attribute), or the line items' selling plan.
 */
const RENEWAL_TAGS = ["subscription recurring order"];
const RENEWAL_ATTRIBUTES = ["subscription_provider"];

/** The merchant's own renewal rule (Shop.renewalRule): a tag, or a note attribute's name. */
export type RenewalRule = { kind: "tag" | "attribute"; name: string } | null;

export function readRenewalRule(text: string | null | undefined): RenewalRule {
  const match = /^(tag|attribute):(.+)$/.exec(text?.trim() ?? "");
  return match ? { kind: match[1] as "tag" | "attribute", name: match[2]!.trim() } : null;
}

export const renewalRuleText = (rule: RenewalRule) => (rule ? `${rule.kind}:${rule.name}` : "");

const tagsOf = (order: OrderPayload) => commaList(order.tags).map((tag) => tag.toLowerCase());
const hasAttribute = (order: OrderPayload, name: string) =>
  (order.note_attributes ?? []).some((a) => a.name.trim().toLowerCase() === name.toLowerCase() && a.value != null && String(a.value).trim() !== "");

/** What says the order is a subscription renewal, in the merchant's words; null when nothing on the order does. */
export function renewalSignal(order: OrderPayload, rule: RenewalRule): string | null {
  if (order.source_name && SUBSCRIPTION_SOURCES.includes(order.source_name)) return `Shopify's source ${order.source_name}`;
  const tags = tagsOf(order);
  const tag = RENEWAL_TAGS.find((t) => tags.includes(t));
  if (tag) return `the subscription app's tag "${tag}"`;
  const attribute = RENEWAL_ATTRIBUTES.find((name) => hasAttribute(order, name));
  if (attribute) return `the subscription app's note attribute ${attribute}`;
  if (rule?.kind === "tag" && tags.includes(rule.name.toLowerCase())) return `your renewal tag "${rule.name}"`;
  if (rule?.kind === "attribute" && hasAttribute(order, rule.name)) return `your renewal note attribute ${rule.name}`;
  return null;
}

/**
 * Whether Shopify's line items may say more (their selling plan, which only
 * the Admin GraphQL API has): an order an app made, or a tag naming a
 * subscription, that no signal above marked a renewal.
 */
export function mayBeSubscription(order: OrderPayload): boolean {
  const source = order.source_name ?? "";
  return (source !== "" && !["web", "pos", "shopify_draft_order", "iphone", "android"].includes(source)) || tagsOf(order).some((tag) => tag.includes("subscription"));
}

/** The customer's first referral in a campaign, from ReferredCustomer. */
export interface FirstReferral {
  referrerEmail: string | null;
  referredAt: Date;
  orderId: string;
}

export interface RepeatFacts {
  referral: FirstReferral;
  policy: RepeatPolicy;
  /** The campaign's recurring reward is "none" (type D) or missing. */
  recurringNone: boolean;
  /** What marks this order a renewal, or null. */
  renewal: string | null;
  /** The customer's renewals already sent in the campaign (for first_n). */
  renewalsSent: number;
  /** A code the order carries, which cannot move the customer to another referrer. */
  code: string | null;
}

export type RepeatVerdict = { send: true; kind: "repeat" | "renewal"; reason: string } | { send: false; reason: string };

const dayMonth = (date: Date) => date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** Whether a later order of a customer referred in the campaign is sent, and why, in the merchant's words. */
export function repeatVerdict(facts: RepeatFacts): RepeatVerdict {
  const who = `a customer ${facts.referral.referrerEmail ?? "an ambassador"} referred on ${dayMonth(facts.referral.referredAt)}`;
  const what = facts.renewal ? `Subscription renewal (${facts.renewal}) of ${who}` : `Repeat purchase of ${who}`;
  const codeNote = facts.code ? `; the code ${facts.code} on it does not move the customer to another referrer` : "";
  const policy = facts.policy;
  const refuse = (why: string): RepeatVerdict => ({ send: false, reason: `${what}: not sent, ${why}${codeNote}` });
  if (facts.recurringNone) return refuse("the campaign pays no recurring reward");
  if (policy.policy === "first_only") return refuse("the campaign's policy pays the first order only");
  if (policy.policy === "renewals_only" && !facts.renewal) return refuse("the campaign's policy pays subscription renewals only");
  if (policy.policy === "first_n") {
    if (!facts.renewal) return refuse(`the campaign's policy pays ${policyWords(policy)} only`);
    if (facts.renewalsSent >= policy.firstN!) return refuse(`the campaign's policy pays ${policyWords(policy)}, and ${facts.renewalsSent} were paid`);
  }
  const count = policy.policy === "first_n" ? ` (renewal ${facts.renewalsSent + 1} of ${policy.firstN})` : "";
  return { send: true, kind: facts.renewal ? "renewal" : "repeat", reason: `${what}: recurring reward${count}${codeNote}` };
}
