import type { Explanation, SignalNote, SignalSource } from "./explanation";

// Leaked codes (decision 036), the pure part: which orders a referral coupon
// earned without a link, the shop's settings, and which commissions a
// flagged code holds.

export interface LeakSettings {
  /** A code used without a link by more buyers than this within the window is leaked; 0: off. */
  threshold: number;
  windowDays: number;
  /** Its commissions are held for the merchant instead of approved. */
  hold: boolean;
}

export const LEAK_DEFAULTS: LeakSettings = { threshold: 5, windowDays: 7, hold: true };
export const MAX_LEAK_THRESHOLD = 1_000;
export const MAX_LEAK_WINDOW_DAYS = 90;

export function readLeakSettings(row: { leakThreshold?: number | null; leakWindowDays?: number | null; leakHold?: boolean | null }): LeakSettings {
  return {
    threshold: row.leakThreshold ?? LEAK_DEFAULTS.threshold,
    windowDays: row.leakWindowDays ?? LEAK_DEFAULTS.windowDays,
    hold: row.leakHold ?? LEAK_DEFAULTS.hold,
  };
}

/** The shop's columns holdsLeakedCommissions reads (a Prisma select). */
export const LEAK_HOLD_SELECT = { leakHold: true, leakThreshold: true } as const;

/** Whether a flagged code's commissions wait for the merchant: the hold is on, and leaks are watched (a threshold is set). */
export function holdsLeakedCommissions(row: Parameters<typeof readLeakSettings>[0] | null | undefined): boolean {
  if (!row) return false;
  const settings = readLeakSettings(row);
  return settings.hold && settings.threshold > 0;
}

/** A code typed at checkout: a discount code, or the friend's offer code the app made for one ambassador. */
const TYPED: ReadonlySet<SignalSource> = new Set(["discount_code", "offer_code"]);

export function typedAtCheckout(source: SignalSource): boolean {
  return TYPED.has(source);
}

/** No link was seen on the order: no cart attribute, no web pixel signal, no landing page code (whatever became of it). */
export function seenNoLink(notes: readonly SignalNote[]): boolean {
  return notes.every((note) => typedAtCheckout(note.source));
}

/** The code, upper case, that credited the order by being typed alone (no link seen); null for any other order. */
export function codeWithoutLink(explanation: Pick<Explanation, "signals" | "winner"> | null): string | null {
  const winner = explanation?.winner;
  if (!winner || !typedAtCheckout(winner.source) || !seenNoLink(explanation.signals)) return null;
  return winner.code.toUpperCase();
}

/** A flagged code, as stored. */
export interface LeakedCode {
  code: string;
  referrerEmail: string | null;
  flaggedAt: Date;
  buyers: number;
  windowDays: number;
  heldFrom: Date;
}

/**
 * Whether an order the code credited without a link is held: the shop holds
 * leaked codes' commissions, and the order was placed at or after the first
 * use of the window that flagged the code.
 */
export function heldByLeak(leak: Pick<LeakedCode, "heldFrom"> | null, placedAt: Date, hold: boolean): boolean {
  return Boolean(leak && hold && placedAt.getTime() >= leak.heldFrom.getTime());
}

/** Why such a commission waits for the merchant, in the words Activity and Commissions use. */
export function leakHeldReason(leak: Pick<LeakedCode, "code" | "buyers" | "windowDays">): string {
  return `Held for your review: the code ${leak.code} is flagged as leaked (${leak.buyers} buyers without a referral link within ${leak.windowDays} days). Approve or deny it in Commissions.`;
}
