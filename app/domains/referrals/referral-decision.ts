import type { CodeOwner } from "./code-directory.server";
import { SIGNAL_NAMES, type Explanation, type SignalNote, type SignalSource } from "./explanation";
import { runGuard, type GuardFacts } from "./guard";
import type { GuardRule, GuardSettings } from "./guard-settings";
import type { CampaignResult, CampaignResults } from "./order-records.server";
import { seenNoLink } from "./leaked-code";
import type { ReferralEventParams } from "./referral-event";

// The referral decision: which of an order's codes credits whom, in which
// campaigns, and why, in the merchant's words. Pure: the order's job gathers
// the facts this asks for (whose code it is, the guard's facts, what the
// service answered when the code was sent), calls it again with them, and
// sends what it says. See docs/decisions/009-attribution-precedence.md.
//
// Precedence: a friend's offer code (a discount code the app itself put in
// Shopify for one ambassador) settles it at once, without asking the service.
// Otherwise the referral link comes first: the code kept in the cart, else
// the one the web pixel sent for this checkout, else the landing page's.
// Then the discount codes in Shopify's order. The first code the referral
// service knows as a referrer's wins; the others are noted.

/** An order's referral signals, as the intake stored them. */
export interface OrderSignals {
  cartAttribute?: string;
  landingPage?: string;
  /** The order's discount codes, in Shopify's order, blanks and repeats left out. */
  discountCodes: string[];
  /** The web pixel's signal for the order's checkout, when the intake found it stored already. */
  pixel?: { code: string; campaign: string | null };
}

type LinkSource = "cart_attribute" | "pixel" | "landing_page";

/** The links in the order they are tried (decision 009): the cart's, the web pixel's, the landing page's. */
const LINK_ORDER: readonly LinkSource[] = ["cart_attribute", "pixel", "landing_page"];

/** The order's link codes, each with its source, in LINK_ORDER. */
function linksOf(signals: OrderSignals, pixelCode: string | null | undefined): { source: LinkSource; code: string }[] {
  const codes: Record<LinkSource, string | null | undefined> = { cart_attribute: signals.cartAttribute, pixel: pixelCode, landing_page: signals.landingPage };
  return LINK_ORDER.flatMap((source) => (codes[source] ? [{ source, code: codes[source]! }] : []));
}

/** The link code the decision tries first: the cart's, else the web pixel's, else the landing page's. */
export function leadingLink(signals: OrderSignals, pixelCode?: string | null): { code: string; source: LinkSource } | null {
  return linksOf(signals, pixelCode)[0] ?? null;
}

/**
 * Whether an order is worth deciding now: "decide" when the shop sends
 * orders without a code or the order carries any code (a link, the web
 * pixel's included, or a discount code); else "await_signal" while the web
 * pixel's signal may still come, and "not_referred" once it cannot.
 */
export type Gate = { next: "decide" } | { next: "await_signal"; reason: string } | { next: "not_referred"; reason: string };

export const AWAITING_SIGNAL_REASON = "No referral code on the order yet: waiting up to 30 minutes for the web pixel's signal";
export const NO_CODE_REASON = "No referral link code or discount code on the order";

export function referralGate(signals: OrderSignals, pixelCode: string | null, options: { sendWithoutCode: boolean; signalMayCome: boolean }): Gate {
  if (options.sendWithoutCode || leadingLink(signals, pixelCode) || signals.discountCodes.length > 0) return { next: "decide" };
  return options.signalMayCome ? { next: "await_signal", reason: AWAITING_SIGNAL_REASON } : { next: "not_referred", reason: NO_CODE_REASON };
}

/**
 * The campaigns to record an order in: a campaign the link named goes alone
 * when the shop tracks it; otherwise every tracked campaign.
 */
export function campaignsFor(tracked: readonly string[], named: string | null | undefined): string[] {
  return named && tracked.includes(named) ? [named] : [...tracked];
}

/** What is known of one code so far. */
export interface CodeFacts {
  /** Whose short code it is; null when the service has no such short code; absent while not asked. */
  owner?: CodeOwner | null;
  guard?: GuardFacts;
  /** The code was sent: whether the service knew it in any campaign, and the referrer it named. */
  sent?: {
    known: boolean;
    referrer?: string | null;
    /** Its commissions were sent pending until the guard has checked the referrer the service names (see holdsCoupons). */
    held?: boolean;
    /** The held commissions were given the shop's approval again, the referrer having passed the guard. */
    released?: boolean;
    /** A coupon's referrer is known only from the service's answer: the guard's facts about them, gathered then. */
    guard?: GuardFacts;
    /** The commissions the send made were denied again, the guard having blocked the referrer it named. */
    denied?: boolean;
  };
}

export interface DecisionInput {
  signals: OrderSignals;
  /** The first discount code that is one of the app's friend's offer codes, with its ambassador. */
  offer: { code: string; email: string } | null;
  /** The web pixel's code for this checkout. */
  pixelCode: string | null;
  /** Discount codes the service refused as coupons lately: the store's own promotions (upper case). */
  promotions: ReadonlySet<string>;
  guard: GuardSettings;
  /** The shop sends orders without a code (a customer referred before may earn their referrer a commission). */
  sendWithoutCode: boolean;
  /** What is known of each code, by the code as the order carries it. */
  facts: ReadonlyMap<string, CodeFacts>;
  /** The order was sent without a code already. */
  sentWithoutCode?: boolean;
}

export interface Decision {
  explanation: Explanation;
  /** The guard rules that flagged the winner: it was sent as pending. */
  flags: GuardRule[];
  /** What becomes of the campaigns still to do when nothing was sent: blocked by the guard, or not referred. */
  unsent?: CampaignResult;
  /** The guard blocked a coupon's referrer after the send: its commissions were denied (see deny_sent). */
  blockedAfterSend?: string;
  /** The commissions were held pending and stay so, for this reason: the merchant approves or denies them. */
  heldPending?: string;
}

export type DecisionStep =
  /** Ask the service whose short code this is. */
  | { next: "find_owner"; code: string }
  /**
   * Gather what the guard compares (the shop's orders, the owner's profile). `afterSend`: the referrer is
   * the one the service named when the coupon was sent.
   */
  | { next: "gather_guard_facts"; code: string; owner: CodeOwner | null; afterSend?: boolean }
  /** Deny the order's commissions: the guard blocks the referrer the service named when the coupon was sent. */
  | { next: "deny_sent"; code: string; detail: string }
  /** Give the held commissions the shop's approval: the referrer the service named passed the guard. */
  | { next: "release_held"; code: string }
  /**
   * Send the order with this code. `hold`: send it pending whatever the shop's approval, because the guard
   * can check a coupon's referrer only once the service has named them.
   */
  | {
      next: "send";
      code: string;
      source: SignalSource;
      sentAs: "short_code" | "coupon_code";
      flags: GuardRule[];
      hold: boolean;
      /** The order showed no link at all: the code was typed alone (what leaked codes count, decision 036). */
      withoutLink: boolean;
    }
  /** Send the order without a code. */
  | { next: "send_without_code" }
  | { next: "decided"; decision: Decision };

interface Candidate {
  code: string;
  source: SignalSource;
  note: SignalNote;
}

const LINK_WORDS: Record<LinkSource, { link: string; whose: string }> = {
  cart_attribute: { link: "the link kept in the cart", whose: "the cart's" },
  pixel: { link: "the link the web pixel sent", whose: "the web pixel's" },
  landing_page: { link: "the landing page's link", whose: "the landing page's" },
};

const EARLIER_SIGNAL_WON = "Not looked at: an earlier signal won";
const STORE_OWN_CODE = "The store's own discount code (not a referral coupon at the service)";
const NOT_A_REFERRAL_CODE = "Not a referral code at the service";

/** Every signal, noted, and the codes to try in order: the first link, then the discount codes (an offer code first). */
function candidatesOf(signals: OrderSignals, offerCode: string | null, pixelCode: string | null): { notes: SignalNote[]; candidates: Candidate[] } {
  const notes: SignalNote[] = [];
  const candidates: Candidate[] = [];
  const add = (source: SignalSource, code: string, candidate: boolean, outcome = EARLIER_SIGNAL_WON) => {
    const note: SignalNote = { source, code, outcome };
    notes.push(note);
    if (candidate) candidates.push({ code, source, note });
  };
  let first: { source: LinkSource; code: string } | undefined;
  for (const { source, code } of linksOf(signals, pixelCode)) {
    if (!first) {
      first = { source, code };
      add(source, code, true);
    } else if (first.code.toUpperCase() === code.toUpperCase()) add(source, code, false, `Same code as ${LINK_WORDS[first.source].whose}`);
    else add(source, code, false, `Not used: ${LINK_WORDS[first.source].link} comes first`);
  }
  for (const code of signals.discountCodes) add(code === offerCode ? "offer_code" : "discount_code", code, true);
  // The offer code goes first; the order of the others stays.
  candidates.sort((a, b) => Number(b.source === "offer_code") - Number(a.source === "offer_code"));
  return { notes, candidates };
}

/** The rules that compare the buyer with the referrer: a coupon's referrer is known only once it is sent. */
const REFERRER_RULES: readonly GuardRule[] = ["self_email", "self_customer", "self_address", "self_ip"];

/** A coupon is sent pending, and approved only after the guard has checked its referrer, while any rule about the referrer is on. */
export function holdsCoupons(guard: GuardSettings): boolean {
  return REFERRER_RULES.some((rule) => guard.modes[rule] !== "off");
}

const blockedDetail = (blockedBy: readonly { label: string; detail?: string }[]) =>
  `Blocked: ${blockedBy.map((v) => `${v.label}${v.detail ? ` (${v.detail})` : ""}`).join("; ")}`;

function whyWon(source: SignalSource, sentAs: "short_code" | "coupon_code"): string {
  if (source === "offer_code") return "The friend's offer code: the app made this discount code for the referrer, so it settles the referral";
  const as = sentAs === "short_code" ? "a referrer's link code" : "a referrer's coupon";
  if (source === "discount_code") return `The first discount code the referral service knows as ${as}`;
  return `${SIGNAL_NAMES[source]} comes first, and the referral service knows it as ${as}`;
}

/**
 * The next step of the decision, from what is known so far: a fact to
 * learn, a code to send, or the decision. Asked again after each step, it
 * moves on; it never asks for what it was given.
 */
export function decideReferral(input: DecisionInput): DecisionStep {
  const { notes, candidates } = candidatesOf(input.signals, input.offer?.code ?? null, input.pixelCode);
  const decided = (decision: Omit<Decision, "explanation"> & { explanation: Omit<Explanation, "signals" | "decision"> }): DecisionStep => ({
    next: "decided",
    decision: { ...decision, explanation: { signals: notes, ...decision.explanation, decision: "" } },
  });

  for (const { code, source, note } of candidates) {
    const isDiscount = source === "discount_code";
    if (isDiscount && input.promotions.has(code.toUpperCase())) {
      note.outcome = STORE_OWN_CODE;
      continue;
    }
    const facts = input.facts.get(code) ?? {};
    // The app made the offer code for its ambassador: no need to ask the service.
    const owner = source === "offer_code" && input.offer ? { email: input.offer.email, uid: null, valid: true } : facts.owner;
    if (owner === undefined) return { next: "find_owner", code };
    if (!owner && !isDiscount) {
      note.outcome = NOT_A_REFERRAL_CODE;
      continue;
    }
    const sentAs = owner ? "short_code" : "coupon_code";
    if (!facts.guard) return { next: "gather_guard_facts", code, owner };
    const guard = runGuard(input.guard, facts.guard);
    const winner = { code, source, sentAs, referrer: owner?.email, why: whyWon(source, sentAs) } as const;
    if (guard.blockedBy.length > 0) {
      Object.assign(note, { won: true, outcome: `Referral code${owner ? ` of ${owner.email}` : ""}; the guard blocked it` });
      return decided({ explanation: { winner, guard: guard.verdicts }, flags: [], unsent: { state: "blocked", detail: blockedDetail(guard.blockedBy) } });
    }
    const flags = guard.flaggedBy.map((v) => v.rule);
    if (!facts.sent) return { next: "send", code, source, sentAs, flags, hold: sentAs === "coupon_code" && holdsCoupons(input.guard), withoutLink: seenNoLink(notes) };
    if (!facts.sent.known) {
      note.outcome = isDiscount ? STORE_OWN_CODE : NOT_A_REFERRAL_CODE;
      continue;
    }
    const referrer = owner?.email ?? facts.sent.referrer ?? undefined;
    if (!owner && referrer) {
      // A coupon: its referrer is known only now, from the service's answer, and is checked against the buyer now.
      if (!facts.sent.guard) return { next: "gather_guard_facts", code, owner: { email: referrer, uid: null, valid: true }, afterSend: true };
      const checked = runGuard(input.guard, facts.sent.guard);
      const sentWinner = { ...winner, referrer };
      if (checked.blockedBy.length > 0) {
        const detail = blockedDetail(checked.blockedBy);
        if (!facts.sent.denied) return { next: "deny_sent", code, detail };
        Object.assign(note, { won: true, outcome: `Coupon of ${referrer}; the guard blocked it once the referral service named the referrer` });
        return decided({ explanation: { winner: sentWinner, guard: checked.verdicts }, flags: [], blockedAfterSend: detail });
      }
      // Flags found now join those the order was sent with; a held commission stays pending for them.
      const allFlags = [...new Set([...flags, ...checked.flaggedBy.map((v) => v.rule)])];
      if (facts.sent.held && allFlags.length === 0 && !facts.sent.released) return { next: "release_held", code };
      Object.assign(note, { won: true, outcome: `Referral code of ${referrer}` });
      return decided({ explanation: { winner: sentWinner, guard: checked.verdicts }, flags: allFlags });
    }
    if (!owner && facts.sent.held) {
      Object.assign(note, { won: true, outcome: "Referral code" });
      const heldPending = "Sent as pending: the referral service did not name the coupon's referrer, so the guard could not check them. Approve or deny it in Commissions.";
      return decided({ explanation: { winner: { ...winner, referrer }, guard: guard.verdicts }, flags, heldPending });
    }
    Object.assign(note, { won: true, outcome: referrer ? `Referral code of ${referrer}` : "Referral code" });
    return decided({ explanation: { winner: { ...winner, referrer }, guard: guard.verdicts }, flags });
  }

  const explanation = { winner: null, guard: [] };
  if (!input.sendWithoutCode) return decided({ explanation, flags: [], unsent: { state: "not_referred" } });
  if (!input.sentWithoutCode) return { next: "send_without_code" };
  return decided({ explanation, flags: [] });
}

/** The event/record parameters of a send step: the code as what the service knows it as, a flagged or held order as pending. */
export function sendParams(base: ReferralEventParams, step: Extract<DecisionStep, { next: "send" }>): ReferralEventParams {
  return {
    ...base,
    ...(step.sentAs === "short_code" ? { shortCode: step.code } : { couponCode: step.code }),
    ...(step.flags.length > 0 || step.hold ? { isApproved: false } : {}),
    ...(step.flags.length > 0 ? { eventData3: `Flagged: ${step.flags.join(", ")}` } : {}),
  };
}

/** Why an order was not referred, naming its codes. */
function notReferredReason(explanation: Explanation): string {
  if (explanation.signals.length === 0) return "Not referred: no referral code on the order, and the customer was never referred";
  const parts = explanation.signals.map((s) =>
    s.source === "discount_code" ? `${s.code} is the store's own discount code` : `link code ${s.code} isn't known at the referral service`,
  );
  return `Not referred: ${parts.join("; ")}`;
}

export type OrderOutcome =
  | { status: "failed"; reason: string }
  | { status: "recorded"; reason: null }
  | { status: "blocked" | "not_referred" | "needs_review" | "awaiting_signal"; reason: string };

/** What the order came to across its campaigns: a campaign that failed, else one recorded, else one blocked, else not referred. */
export function orderOutcome(results: CampaignResults, campaigns: readonly string[], explanation: Explanation): OrderOutcome {
  const of = (state: CampaignResult["state"]) => campaigns.filter((uid) => results[uid]?.state === state);
  const failed = of("failed");
  if (failed.length > 0) return { status: "failed", reason: failed.map((uid) => `Campaign ${uid}: ${results[uid]!.detail}`).join(" ") };
  const review = campaigns.filter((uid) => results[uid]?.reversal === "needs_review");
  if (review.length > 0) {
    return {
      status: "needs_review",
      reason: `The guard blocked this order once the referral service named the referrer, but the commission in campaign ${review.join(", ")} was already approved; the service cannot change it. Review it in Commissions.`,
    };
  }
  if (of("recorded").length > 0) return { status: "recorded", reason: null };
  const blocked = of("blocked");
  if (blocked.length > 0) return { status: "blocked", reason: results[blocked[0]!]!.detail ?? "Blocked" };
  if (explanation.repeat?.length) return { status: "not_referred", reason: explanation.repeat.join(" ") };
  return { status: "not_referred", reason: notReferredReason(explanation) };
}

/**
 * The status a job stores: not referred waits for the web pixel's signal
 * instead (awaiting_signal) while one may still come and the decision
 * weighed none (a promotion-only order, say, whose buyer came by a link).
 */
export function settledStatus(outcome: OrderOutcome, { pixelWeighed, signalMayCome }: { pixelWeighed: boolean; signalMayCome: boolean }): OrderOutcome {
  if (outcome.status !== "not_referred" || pixelWeighed || !signalMayCome) return outcome;
  return { status: "awaiting_signal", reason: `Waiting up to 30 minutes for the web pixel's signal (${outcome.reason})` };
}

/** The decision in one sentence, as Activity shows it under "Why?". */
export function decisionText(outcome: OrderOutcome, explanation: Explanation, flags: readonly string[], heldPending?: string): string {
  if (outcome.status === "recorded") {
    const winner = explanation.winner;
    if (!winner && explanation.repeat?.length) return explanation.repeat.join(" ");
    const credited = winner ? `Credited${winner.referrer ? ` to ${winner.referrer}` : ""} through ${winner.code}` : "Credited to the customer's earlier referrer";
    if (flags.length > 0) return `${credited}; sent as pending because the guard flagged it`;
    return heldPending ? `${credited}. ${heldPending}` : credited;
  }
  return outcome.reason ?? "";
}
