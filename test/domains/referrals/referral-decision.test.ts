// The referral decision on its own: which code of an order credits whom,
// step by step, with the facts the job would gather given by hand.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CodeOwner } from "../../../app/domains/referrals/code-directory.server";
import type { GuardFacts } from "../../../app/domains/referrals/guard";
import { GUARD_RULES, readGuardSettings, type GuardMode, type GuardRule } from "../../../app/domains/referrals/guard-settings";
import {
  campaignsFor,
  decideReferral,
  decisionText,
  leadingLink,
  orderOutcome,
  referralGate,
  sendParams,
  settledStatus,
  type CodeFacts,
  type Decision,
  type DecisionInput,
  type DecisionStep,
  type OrderSignals,
} from "../../../app/domains/referrals/referral-decision";

const owner = (email: string): CodeOwner => ({ email, uid: null, valid: true });

/** Guard facts of a buyer who is nobody the referrer is. */
const cleanFacts = (buyerEmail = "buyer@example.com", referrerEmail?: string): GuardFacts => ({
  buyer: { email: buyerEmail, earlierOrders: 0 },
  referrer: referrerEmail ? { email: referrerEmail, customerIds: [], addresses: [], phones: [], ips: [] } : undefined,
  referredFromIpToday: 0,
  referredWithCodeToday: 0,
});

const guard = (modes: Partial<Record<GuardRule, GuardMode>> = {}) =>
  readGuardSettings({ guardRules: Object.entries(modes).map(([rule, mode]) => `${rule}=${mode}`).join(",") });

const ALL_OFF = guard(Object.fromEntries(GUARD_RULES.map((rule) => [rule, "off"])));

function input(signals: OrderSignals, extra: Partial<DecisionInput> = {}): DecisionInput {
  return { signals, offer: null, pixelCode: null, promotions: new Set(), guard: guard(), sendWithoutCode: false, facts: new Map(), ...extra };
}

/** What the service knows, as a test states it. */
interface World {
  owners: Record<string, string>;
  /** Codes the service knows as a referrer's code when sent (a short code's owner or a coupon). */
  known: Set<string>;
  /** The guard facts a code's look-up gives. */
  guardFacts?: (code: string, owner: CodeOwner | null) => GuardFacts;
  /** The referrer the service names when a coupon is sent. */
  coupons?: Record<string, string>;
}

/** Drives the decision as the job does, answering each step from `world`; the steps taken and the decision. */
function run(start: DecisionInput, world: World, maxSteps = 100): { steps: DecisionStep[]; decision: Decision } {
  const facts = new Map<string, CodeFacts>(start.facts);
  const at = (code: string) => facts.get(code) ?? facts.set(code, {}).get(code)!;
  const current: DecisionInput = { ...start, facts };
  const steps: DecisionStep[] = [];
  for (let i = 0; i < maxSteps; i++) {
    const step = decideReferral(current);
    steps.push(step);
    switch (step.next) {
      case "decided":
        return { steps, decision: step.decision };
      case "find_owner":
        at(step.code).owner = world.owners[step.code] ? owner(world.owners[step.code]!) : null;
        break;
      case "gather_guard_facts": {
        const guard = world.guardFacts?.(step.code, step.owner) ?? cleanFacts("buyer@example.com", step.owner?.email);
        if (step.afterSend) at(step.code).sent = { ...at(step.code).sent!, guard };
        else at(step.code).guard = guard;
        break;
      }
      case "send": {
        const known = world.known.has(step.code);
        at(step.code).sent = { known, referrer: world.coupons?.[step.code] ?? null, held: known && step.hold };
        break;
      }
      case "deny_sent":
        at(step.code).sent = { ...at(step.code).sent!, denied: true };
        break;
      case "release_held":
        at(step.code).sent = { ...at(step.code).sent!, released: true };
        break;
      case "send_without_code":
        current.sentWithoutCode = true;
        break;
    }
  }
  throw new Error(`no decision after ${maxSteps} steps: ${JSON.stringify(steps.slice(-3))}`);
}

describe("the referral decision, step by step", () => {
  it("asks whose the cart's code is, then the guard's facts, then sends it, and credits its owner", () => {
    const signals = { cartAttribute: "ALICE10", discountCodes: [] };
    const { steps, decision } = run(input(signals), { owners: { ALICE10: "alice@example.com" }, known: new Set(["ALICE10"]) });
    expect(steps.map((s) => s.next)).toEqual(["find_owner", "gather_guard_facts", "send", "decided"]);
    expect(steps[2]).toMatchObject({ next: "send", code: "ALICE10", source: "cart_attribute", sentAs: "short_code", flags: [] });
    expect(decision.explanation.winner).toMatchObject({ code: "ALICE10", source: "cart_attribute", sentAs: "short_code", referrer: "alice@example.com" });
    expect(decision.explanation.signals).toEqual([{ source: "cart_attribute", code: "ALICE10", outcome: "Referral code of alice@example.com", won: true }]);
    expect(decision.unsent).toBeUndefined();
  });

  it("notes the other links: the same code as the first, or a different one not used", () => {
    const same = run(input({ cartAttribute: "ALICE10", landingPage: "alice10", discountCodes: [] }), { owners: { ALICE10: "a@x.test" }, known: new Set(["ALICE10"]) });
    expect(same.decision.explanation.signals[1]).toEqual({ source: "landing_page", code: "alice10", outcome: "Same code as the cart's" });
    const other = run(input({ cartAttribute: "ALICE10", landingPage: "BOB10", discountCodes: [] }, { pixelCode: "CAROL10" }), {
      owners: { ALICE10: "a@x.test" },
      known: new Set(["ALICE10"]),
    });
    expect(other.decision.explanation.signals.map((s) => [s.source, s.outcome])).toEqual([
      ["cart_attribute", "Referral code of a@x.test"],
      ["pixel", "Not used: the link kept in the cart comes first"],
      ["landing_page", "Not used: the link kept in the cart comes first"],
    ]);
  });

  it("puts the web pixel's code before the landing page's when the cart has none", () => {
    const { decision } = run(input({ landingPage: "BOB10", discountCodes: [] }, { pixelCode: "CAROL10" }), {
      owners: { CAROL10: "carol@x.test", BOB10: "bob@x.test" },
      known: new Set(["CAROL10", "BOB10"]),
    });
    expect(decision.explanation.winner).toMatchObject({ code: "CAROL10", source: "pixel" });
  });

  it("tries the discount codes after a link the service does not know, a coupon that it refuses marking the store's own", () => {
    const { steps, decision } = run(input({ cartAttribute: "GONE", discountCodes: ["SUMMER", "ALICE-15"] }), { owners: {}, known: new Set(["ALICE-15"]) });
    expect(steps.filter((s) => s.next === "send").map((s) => s.next === "send" && [s.code, s.sentAs])).toEqual([
      ["SUMMER", "coupon_code"],
      ["ALICE-15", "coupon_code"],
    ]);
    expect(decision.explanation.signals.map((s) => s.outcome)).toEqual([
      "Not a referral code at the service",
      "The store's own discount code (not a referral coupon at the service)",
      "Referral code",
    ]);
    expect(decision.explanation.winner).toMatchObject({ code: "ALICE-15", source: "discount_code", sentAs: "coupon_code" });
  });

  it("credits a coupon to the referrer the service names", () => {
    const sent = { known: true, referrer: "alice@example.com", guard: cleanFacts("buyer@example.com", "alice@example.com") };
    const facts = new Map<string, CodeFacts>([["ALICE-15", { owner: null, guard: cleanFacts(), sent }]]);
    const step = decideReferral(input({ discountCodes: ["ALICE-15"] }, { facts }));
    expect(step).toMatchObject({ next: "decided", decision: { explanation: { winner: { code: "ALICE-15", referrer: "alice@example.com" } } } });
  });

  it("checks a coupon's referrer once the service names them, and denies what the send made when the guard blocks", () => {
    const selfReferral = { owners: {}, known: new Set(["ALICE-15"]), coupons: { "ALICE-15": "alice@example.com" }, guardFacts: (_c: string, found: CodeOwner | null) => cleanFacts("alice+coupon@example.com", found?.email) };
    const { steps, decision } = run(input({ discountCodes: ["ALICE-15"] }), selfReferral);
    expect(steps.map((s) => s.next)).toEqual(["find_owner", "gather_guard_facts", "send", "gather_guard_facts", "deny_sent", "decided"]);
    expect(steps[3]).toMatchObject({ afterSend: true, owner: { email: "alice@example.com" } });
    expect(steps[4]).toMatchObject({ next: "deny_sent", detail: expect.stringMatching(/^Blocked: Buyer's email is the referrer's/) });
    expect(decision.blockedAfterSend).toMatch(/^Blocked:/);
    expect(decision.explanation.winner).toMatchObject({ code: "ALICE-15", referrer: "alice@example.com" });

    const someoneElse = run(input({ discountCodes: ["ALICE-15"] }), { ...selfReferral, guardFacts: (_c, found) => cleanFacts("jon@example.com", found?.email) });
    expect(someoneElse.steps.map((s) => s.next)).toEqual(["find_owner", "gather_guard_facts", "send", "gather_guard_facts", "release_held", "decided"]);
    expect(someoneElse.decision.blockedAfterSend).toBeUndefined();
    expect(someoneElse.decision.flags).toEqual([]);
    expect(someoneElse.decision.explanation.signals[0]!.outcome).toBe("Referral code of alice@example.com");
  });

  it("sends a coupon pending while a rule about the referrer is on, and releases it only when the referrer passes", () => {
    const couponStep = (settings = guard()) => run(input({ discountCodes: ["ALICE-15"] }, { guard: settings }), { owners: {}, known: new Set(["ALICE-15"]), coupons: { "ALICE-15": "alice@example.com" } }).steps.find((s) => s.next === "send")!;
    const held = couponStep();
    expect(held).toMatchObject({ next: "send", sentAs: "coupon_code", hold: true, flags: [] });
    const base = { email: "buyer@example.com", transactionUid: "1", isApproved: true };
    expect(sendParams(base, held as Extract<DecisionStep, { next: "send" }>)).toEqual({ ...base, couponCode: "ALICE-15", isApproved: false });
    const unheld = couponStep(guard({ self_email: "off", self_customer: "off", self_address: "off", self_ip: "off" }));
    expect(unheld).toMatchObject({ hold: false });
    expect(sendParams(base, unheld as Extract<DecisionStep, { next: "send" }>)).toEqual({ ...base, couponCode: "ALICE-15" });
    // A link code's owner is known before the send: nothing is held.
    const link = run(input({ cartAttribute: "ALICE10", discountCodes: [] }), { owners: { ALICE10: "alice@example.com" }, known: new Set(["ALICE10"]) });
    expect(link.steps.find((s) => s.next === "send")).toMatchObject({ hold: false });

    // Same address: flagged once the service names the referrer, so it stays pending and is not released.
    const sameAddress = run(input({ discountCodes: ["ALICE-15"] }), {
      owners: {},
      known: new Set(["ALICE-15"]),
      coupons: { "ALICE-15": "alice@example.com" },
      guardFacts: (_c, found) => {
        const facts = cleanFacts("jon@example.com", found?.email);
        if (!found) return facts;
        return { ...facts, buyer: { ...facts.buyer, address: "1 high st|n1 1aa|gb" }, referrer: { ...facts.referrer!, addresses: ["1 high st|n1 1aa|gb"] } };
      },
    });
    expect(sameAddress.steps.map((s) => s.next)).toEqual(["find_owner", "gather_guard_facts", "send", "gather_guard_facts", "decided"]);
    expect(sameAddress.decision.flags).toEqual(["self_address"]);
    expect(decisionText({ status: "recorded", reason: null }, sameAddress.decision.explanation, sameAddress.decision.flags)).toMatch(/sent as pending because the guard flagged it$/);
  });

  it("keeps a held coupon pending, saying why, when the service's answer named no referrer", () => {
    const sent = { known: true, referrer: null, held: true };
    const facts = new Map<string, CodeFacts>([["ALICE-15", { owner: null, guard: cleanFacts(), sent }]]);
    const step = decideReferral(input({ discountCodes: ["ALICE-15"] }, { facts }));
    expect(step).toMatchObject({ next: "decided", decision: { flags: [], heldPending: expect.stringMatching(/could not check/) } });
    const decision = (step as Extract<DecisionStep, { next: "decided" }>).decision;
    expect(decisionText({ status: "recorded", reason: null }, decision.explanation, [], decision.heldPending)).toMatch(/^Credited through ALICE-15\. Sent as pending/);
  });

  it("skips a discount code it knows as a promotion without asking the service", () => {
    const { steps } = run(input({ discountCodes: ["SUMMER"] }, { promotions: new Set(["SUMMER"]) }), { owners: {}, known: new Set() });
    expect(steps.map((s) => s.next)).toEqual(["decided"]);
    expect(steps[0]).toMatchObject({ decision: { unsent: { state: "not_referred" }, explanation: { signals: [{ code: "SUMMER", outcome: expect.stringMatching(/store's own/) }] } } });
  });

  it("settles a friend's offer code first, without asking whose it is", () => {
    const { steps, decision } = run(
      input({ cartAttribute: "BOB10", discountCodes: ["SUMMER", "FRIEND-ALICE"] }, { offer: { code: "FRIEND-ALICE", email: "alice@example.com" } }),
      { owners: { BOB10: "bob@example.com" }, known: new Set(["FRIEND-ALICE", "BOB10"]) },
    );
    expect(steps[0]).toEqual({ next: "gather_guard_facts", code: "FRIEND-ALICE", owner: owner("alice@example.com") });
    expect(decision.explanation.winner).toMatchObject({ code: "FRIEND-ALICE", source: "offer_code", sentAs: "short_code", referrer: "alice@example.com" });
  });

  it("blocks a self-referral without sending it, and says which rule", () => {
    const { steps, decision } = run(input({ cartAttribute: "ALICE10", discountCodes: [] }), {
      owners: { ALICE10: "alice@example.com" },
      known: new Set(["ALICE10"]),
      guardFacts: (_code, found) => cleanFacts("Alice+shop@Example.com", found?.email),
    });
    expect(steps.some((s) => s.next === "send")).toBe(false);
    expect(decision.unsent).toEqual({ state: "blocked", detail: expect.stringMatching(/^Blocked: Buyer's email is the referrer's/) });
    expect(decision.explanation.guard.find((v) => v.rule === "self_email")?.verdict).toBe("blocked");
    expect(decision.explanation.signals[0]!.outcome).toBe("Referral code of alice@example.com; the guard blocked it");
  });

  it("sends a flagged order as pending, naming the rules", () => {
    const settings = guard({ self_email: "flag" });
    const { steps, decision } = run(input({ cartAttribute: "ALICE10", discountCodes: [] }, { guard: settings }), {
      owners: { ALICE10: "alice@example.com" },
      known: new Set(["ALICE10"]),
      guardFacts: (_code, found) => cleanFacts("alice@example.com", found?.email),
    });
    const send = steps.find((s) => s.next === "send")!;
    expect(send).toMatchObject({ flags: ["self_email"] });
    expect(sendParams({ email: "alice@example.com", transactionUid: "1" }, send as Extract<DecisionStep, { next: "send" }>)).toEqual({
      email: "alice@example.com",
      transactionUid: "1",
      shortCode: "ALICE10",
      isApproved: false,
      eventData3: "Flagged: self_email",
    });
    expect(decision.flags).toEqual(["self_email"]);
  });

  it("sends an order without a code when the shop sends all orders, and calls it not referred otherwise", () => {
    expect(run(input({ discountCodes: [] }, { sendWithoutCode: true }), { owners: {}, known: new Set() }).steps.map((s) => s.next)).toEqual([
      "send_without_code",
      "decided",
    ]);
    expect(run(input({ discountCodes: [] }), { owners: {}, known: new Set() }).decision.unsent).toEqual({ state: "not_referred" });
  });

  it("puts the outcome in the merchant's words", () => {
    const { decision } = run(input({ cartAttribute: "GONE", discountCodes: ["SUMMER"] }), { owners: {}, known: new Set() });
    const results = { "1001": decision.unsent! };
    const outcome = orderOutcome(results, ["1001"], decision.explanation);
    expect(outcome).toEqual({ status: "not_referred", reason: "Not referred: link code GONE isn't known at the referral service; SUMMER is the store's own discount code" });
    expect(decisionText(outcome, decision.explanation, [])).toBe(outcome.reason);
    const credited = run(input({ cartAttribute: "ALICE10", discountCodes: [] }), { owners: { ALICE10: "alice@example.com" }, known: new Set(["ALICE10"]) });
    expect(decisionText({ status: "recorded", reason: null }, credited.decision.explanation, ["self_ip"])).toBe(
      "Credited to alice@example.com through ALICE10; sent as pending because the guard flagged it",
    );
  });

  it("chooses the campaigns: the one a link named goes alone when it is tracked", () => {
    expect(campaignsFor(["1001", "1003"], "1003")).toEqual(["1003"]);
    expect(campaignsFor(["1001", "1003"], "9999")).toEqual(["1001", "1003"]);
    expect(campaignsFor(["1001"], null)).toEqual(["1001"]);
  });
});

describe("the referral gate, with the decision's one precedence", () => {
  const noCode: OrderSignals = { discountCodes: [] };
  const gate = (signals: OrderSignals, pixel: string | null, options: Partial<{ sendWithoutCode: boolean; signalMayCome: boolean }> = {}) =>
    referralGate(signals, pixel, { sendWithoutCode: false, signalMayCome: false, ...options });

  it("leads with the cart's link, then the web pixel's, then the landing page's", () => {
    expect(leadingLink({ cartAttribute: "CART", landingPage: "LAND", discountCodes: [] }, "PIXEL")).toEqual({ code: "CART", source: "cart_attribute" });
    expect(leadingLink({ landingPage: "LAND", discountCodes: [] }, "PIXEL")).toEqual({ code: "PIXEL", source: "pixel" });
    expect(leadingLink({ landingPage: "LAND", discountCodes: [] })).toEqual({ code: "LAND", source: "landing_page" });
    expect(leadingLink({ discountCodes: ["SAVE"] }, null)).toBeNull();
  });

  it("leads with the link the decision tries first, whatever the signals", () => {
    fc.assert(
      fc.property(scenario, ({ signals, start }) => {
        const first = decideReferral(start);
        const link = leadingLink(signals, start.pixelCode);
        // With no offer code the decision's first question is about the gate's leading link.
        if (link && !start.offer && first.next === "find_owner") expect(first.code).toBe(link.code);
      }),
    );
  });

  it("decides an order with any code, the web pixel's included, or in a shop that sends every order", () => {
    expect(gate({ landingPage: "LAND", discountCodes: [] }, null)).toEqual({ next: "decide" });
    expect(gate({ discountCodes: ["SAVE"] }, null)).toEqual({ next: "decide" });
    expect(gate(noCode, "PIXEL")).toEqual({ next: "decide" });
    expect(gate(noCode, null, { sendWithoutCode: true })).toEqual({ next: "decide" });
  });

  it("waits for the web pixel's signal while one may come, else is not referred", () => {
    expect(gate(noCode, null, { signalMayCome: true })).toMatchObject({ next: "await_signal", reason: expect.stringMatching(/30 minutes for the web pixel/) });
    expect(gate(noCode, null)).toEqual({ next: "not_referred", reason: "No referral link code or discount code on the order" });
  });

  it("has a job's not-referred order wait while no signal was weighed and one may still come", () => {
    const notReferred = { status: "not_referred", reason: "Not referred: SUMMER is the store's own discount code" } as const;
    expect(settledStatus(notReferred, { pixelWeighed: false, signalMayCome: true })).toEqual({
      status: "awaiting_signal",
      reason: "Waiting up to 30 minutes for the web pixel's signal (Not referred: SUMMER is the store's own discount code)",
    });
    expect(settledStatus(notReferred, { pixelWeighed: true, signalMayCome: true })).toBe(notReferred);
    expect(settledStatus(notReferred, { pixelWeighed: false, signalMayCome: false })).toBe(notReferred);
    expect(settledStatus({ status: "recorded", reason: null }, { pixelWeighed: false, signalMayCome: true })).toEqual({ status: "recorded", reason: null });
  });
});

// --- properties ----------------------------------------------------------

const code = fc.stringMatching(/^[A-Z0-9]{2,6}$/);

const scenario = fc
  .record({
    cart: fc.option(code, { nil: undefined }),
    landing: fc.option(code, { nil: undefined }),
    pixel: fc.option(code, { nil: null }),
    discounts: fc.uniqueArray(code, { maxLength: 4, selector: (c) => c.toUpperCase() }),
    owned: fc.array(code, { maxLength: 6 }),
    known: fc.array(code, { maxLength: 6 }),
    promotions: fc.array(code, { maxLength: 3 }),
    offerIndex: fc.option(fc.nat(3), { nil: null }),
    sendWithoutCode: fc.boolean(),
  })
  .map((s) => {
    // A discount code that is also a link code is left out: it would be one code with two sources.
    const links = new Set([s.cart, s.landing, s.pixel].filter(Boolean).map((c) => c!.toUpperCase()));
    const discounts = s.discounts.filter((c) => !links.has(c.toUpperCase()));
    const signals: OrderSignals = { ...(s.cart ? { cartAttribute: s.cart } : {}), ...(s.landing ? { landingPage: s.landing } : {}), discountCodes: discounts };
    const offerCode = s.offerIndex !== null ? discounts[s.offerIndex] : undefined;
    const world: World = {
      owners: Object.fromEntries(s.owned.map((c) => [c, `${c.toLowerCase()}@example.com`])),
      known: new Set([...s.known, ...s.owned]),
    };
    const start = input(signals, {
      pixelCode: s.pixel,
      promotions: new Set(s.promotions),
      offer: offerCode ? { code: offerCode, email: "friend@example.com" } : null,
      guard: ALL_OFF,
      sendWithoutCode: s.sendWithoutCode,
    });
    return { signals, world, start, offerCode };
  });

/** The codes the decision may try, in precedence order (what the decision is meant to do). */
function expectedCandidates(signals: OrderSignals, pixel: string | null, offerCode: string | undefined): string[] {
  const link = signals.cartAttribute ?? pixel ?? signals.landingPage;
  const discounts = offerCode ? [offerCode, ...signals.discountCodes.filter((c) => c !== offerCode)] : signals.discountCodes;
  return [...(link ? [link] : []), ...discounts].sort((a, b) => Number(b === offerCode) - Number(a === offerCode));
}

describe("the referral decision, for any order", () => {
  it("ends, asking for each fact at most once", () => {
    fc.assert(
      fc.property(scenario, ({ world, start }) => {
        const { steps } = run(start, world);
        const asked = steps.filter((s) => s.next !== "decided").map((s) => JSON.stringify([s.next, "code" in s ? s.code : ""]));
        expect(new Set(asked).size).toBe(asked.length);
      }),
    );
  });

  it("credits the first code by precedence that the service knows, or nobody", () => {
    fc.assert(
      fc.property(scenario, ({ signals, world, start, offerCode }) => {
        const { decision } = run(start, world);
        const isLink = (c: string) => !signals.discountCodes.includes(c);
        const wins = (c: string) => {
          if (c === offerCode) return world.known.has(c);
          if (isLink(c)) return Boolean(world.owners[c]) && world.known.has(c);
          if (start.promotions.has(c.toUpperCase())) return false;
          return world.known.has(c);
        };
        const expected = expectedCandidates(signals, start.pixelCode, offerCode).find(wins) ?? null;
        expect(decision.explanation.winner?.code ?? null).toBe(expected);
      }),
    );
  });

  it("notes every signal once, and marks no more than the winner as won", () => {
    fc.assert(
      fc.property(scenario, ({ signals, world, start }) => {
        const { decision } = run(start, world);
        const all = [signals.cartAttribute, start.pixelCode, signals.landingPage, ...signals.discountCodes].filter(Boolean);
        expect(decision.explanation.signals.map((s) => s.code)).toEqual(all);
        const won = decision.explanation.signals.filter((s) => s.won);
        expect(won.map((s) => s.code)).toEqual(decision.explanation.winner ? [decision.explanation.winner.code] : []);
      }),
    );
  });

  it("never sends a code the guard blocks: a buyer using their own code is credited to nobody", () => {
    fc.assert(
      fc.property(scenario, ({ world, start, offerCode }) => {
        const blocking = { ...start, guard: guard({ self_email: "block" }) };
        const buyerIsReferrer = (_c: string, found: CodeOwner | null) => cleanFacts(found?.email ?? "buyer@example.com", found?.email);
        const { steps, decision } = run(blocking, { ...world, guardFacts: buyerIsReferrer });
        // Only coupons, whose owner is not known before sending, are sent.
        for (const step of steps) if (step.next === "send") expect(step.code !== offerCode && !world.owners[step.code]).toBe(true);
        if (decision.explanation.winner?.sentAs === "short_code") expect(decision.unsent?.state).toBe("blocked");
      }),
    );
  });
});
