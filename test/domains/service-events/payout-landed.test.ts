import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { didCreditLand, type LandedInput } from "../../../app/domains/service-events/payout-landed";
import type { StoreCredit } from "../../../app/domains/service-events/shopify-customers.server";

// Did a credit whose answer was lost land? Judged from the account's
// credits since the attempt, never from the balance.

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 10, minute));
const credit = (id: string, amount: string, minute = 0, fromOrder = false): StoreCredit => ({ id, amount, createdAt: at(minute), fromOrder });
const input = (credits: StoreCredit[], more: Partial<LandedInput> = {}): LandedInput => ({ amount: "5.00", credits, complete: true, matched: new Set(), rivals: 0, ...more });

describe("didCreditLand", () => {
  it("one credit of the amount: it landed", () => {
    expect(didCreditLand(input([credit("a", "5.00")]))).toEqual({ landed: "yes", transactionId: "a" });
    expect(didCreditLand(input([credit("a", "5")]))).toEqual({ landed: "yes", transactionId: "a" });
  });

  it("none of the amount: it did not land, whatever else came in", () => {
    expect(didCreditLand(input([]))).toEqual({ landed: "no" });
    expect(didCreditLand(input([credit("a", "4.99"), credit("b", "50.00")]))).toEqual({ landed: "no" });
    // A refund to store credit of the same amount is an order's, not the app's.
    expect(didCreditLand(input([credit("r", "5.00", 1, true)]))).toEqual({ landed: "no" });
    // Another payout's credit of the same amount is that payout's.
    expect(didCreditLand(input([credit("a", "5.00")], { matched: new Set(["a"]) }))).toEqual({ landed: "no" });
  });

  it("more credits of the amount than payouts waiting for them, fewer, or a list not read to its end: the merchant decides", () => {
    expect(didCreditLand(input([credit("a", "5.00"), credit("b", "5.00", 1)]))).toEqual({ landed: "unclear", why: "several" });
    expect(didCreditLand(input([credit("a", "5.00")], { rivals: 1 }))).toEqual({ landed: "unclear", why: "rival" });
    expect(didCreditLand(input([credit("a", "5.00")], { complete: false }))).toEqual({ landed: "unclear", why: "unreadable" });
    expect(didCreditLand(input([], { complete: false }))).toEqual({ landed: "unclear", why: "unreadable" });
  });

  it("as many credits as payouts waiting for them: each landed, this one takes the oldest", () => {
    expect(didCreditLand(input([credit("late", "5.00", 3), credit("early", "5.00", 1)], { rivals: 1 }))).toEqual({ landed: "yes", transactionId: "early" });
    expect(didCreditLand(input([credit("late", "5.00", 3), credit("early", "5.00", 1)], { rivals: 1, matched: new Set(["early"]) }))).toEqual({
      landed: "unclear",
      why: "rival",
    });
  });

  it("never takes a credit of another amount, from an order or another payout's, and says 'no' only when no credit could be its own", () => {
    const credits = fc.array(
      fc.record({
        id: fc.string({ minLength: 1, maxLength: 4 }),
        amount: fc.constantFrom("5.00", "5", "4.99", "10.00"),
        createdAt: fc.integer({ min: 0, max: 59 }).map(at),
        fromOrder: fc.boolean(),
      }),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(credits, fc.boolean(), fc.nat(3), fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 3 }), (list, complete, rivals, matchedIds) => {
        const matched = new Set(matchedIds);
        const verdict = didCreditLand({ amount: "5.00", credits: list, complete, matched, rivals });
        const own = list.filter((c) => !c.fromOrder && !matched.has(c.id) && Number(c.amount) === 5);
        if (!complete) return verdict.landed === "unclear";
        if (verdict.landed === "yes") return own.some((c) => c.id === verdict.transactionId) && own.length === rivals + 1;
        if (verdict.landed === "no") return own.length === 0;
        return own.length > 0 && own.length !== rivals + 1;
      }),
    );
  });
});
