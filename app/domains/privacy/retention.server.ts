import { GUARD_WINDOW_MS, MAX_LEAK_WINDOW_DAYS, PIXEL_SIGNAL_TTL_MS } from "../referrals";

// How long the app keeps what it keeps: the one source of the periods the
// purge (purge.server.ts) applies, docs/privacy.md states and the Settings page
// shows. docs/privacy.md says why each field is read at all.

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long a delivery may come again with the same webhook id: Shopify
 * retries for 4 hours (8 times, since September 2024; for 48 hours before),
 * and the app refuses a delivery triggered over a day ago
 * (TRIGGERED_AT_MAX_AGE_MS). 48 hours covers both with room.
 */
export const SHOPIFY_REDELIVERY_MS = 48 * HOUR_MS;

/**
 * The browser IP and held event (the buyer's phone and address, for a pixel
 * signal that may still come) of an order that was not referred: kept while
 * the guard's velocity rules may still count it (their one-day window) and
 * Shopify may still deliver the order again, then cleared. The buyer's email
 * stays, as long as the row: the guard's "returning customer" rule and its
 * self-referral rules find a buyer's and a referrer's earlier orders by
 * email with no time limit (a referrer's own purchases are orders not
 * referred). So the "same IP as the referrer" rule sees the referrer's
 * orders of these last days only. Skipped orders keep theirs: the merchant
 * may send one again, and some were referred.
 */
export const UNREFERRED_ORDER_PERSONAL_DATA_MS = GUARD_WINDOW_MS + SHOPIFY_REDELIVERY_MS;

/** A web pixel signal: kept while an order may still join it (its webhook can come hours late), then deleted. */
export const PIXEL_SIGNAL_MS = PIXEL_SIGNAL_TTL_MS;

/**
 * A finished (done) job, whose payload may hold the buyer's details: its key
 * keeps Shopify's redeliveries (48 hours) from doing the work twice, so it
 * is kept a week, then deleted. Failed jobs stay until the merchant retries
 * or skips them, and finished cancellations and refunds stay with their
 * order (KEPT_JOB_KINDS in purge.server.ts).
 */
export const FINISHED_JOB_MS = 7 * DAY_MS;

/**
 * An order webhook set aside on SQLite (planning failed on it alone,
 * decision 022): kept for a week, time for a fix to be deployed (the next
 * start plans it again), then deleted. Reconciliation reads its order from
 * the Admin API meanwhile.
 */
export const SET_ASIDE_DELIVERY_MS = 7 * DAY_MS;

/**
 * A queued order webhook refused for good (RefusedDelivery: its shop, topic
 * and why, none of the order): the Overview shows a week of them, then it
 * is deleted.
 */
export const REFUSED_DELIVERY_MS = 7 * DAY_MS;

/**
 * A buyer's last use of a referral coupon without a link (CouponBuyer: a
 * keyed hash of who, the code, the order and when): leaked-code detection
 * counts a code's buyers within the shop's window before the order, 90
 * days at the most; with 48 hours for an order handled late (Shopify's
 * redeliveries), a row that no window can reach is deleted. An order read
 * back from further ago (a backfill) is counted without the buyers of its time.
 */
export const COUPON_BUYER_MS = MAX_LEAK_WINDOW_DAYS * DAY_MS + SHOPIFY_REDELIVERY_MS;

/** A data request's report (a customer's export) and who asked: 30 days after it was made, time for the merchant to hand it over. */
export const DATA_REQUEST_REPORT_MS = 30 * DAY_MS;

export interface RetentionPeriod {
  what: string;
  period: string;
  then: string;
}

function duration(ms: number): string {
  if (ms % DAY_MS === 0) return ms === DAY_MS ? "1 day" : `${ms / DAY_MS} days`;
  return `${ms / HOUR_MS} hours`;
}

/** The periods in the merchant's words, for the Settings page. */
export function retentionPeriods(): RetentionPeriod[] {
  return [
    {
      what: "Browser IP, phone and address of orders that were not referred",
      period: `${duration(UNREFERRED_ORDER_PERSONAL_DATA_MS)} after the order`,
      then: "Cleared; the order number, its outcome and the buyer's email stay (the referral guard compares later orders with them).",
    },
    { what: "Web pixel signals (checkout token and referral code)", period: duration(PIXEL_SIGNAL_MS), then: "Deleted." },
    {
      what: "Buyers who used a referral coupon without a share link (kept as a one-way fingerprint, to spot leaked codes)",
      period: `${duration(COUPON_BUYER_MS)} after their last such order`,
      then: "Deleted.",
    },
    { what: "Finished background jobs", period: duration(FINISHED_JOB_MS), then: "Deleted; failed jobs stay until you retry or skip them." },
    { what: "Order webhooks the app could not read into an order (kept to be read again after an update)", period: `${duration(SET_ASIDE_DELIVERY_MS)} after delivery`, then: "Deleted." },
    { what: "Order updates from Shopify's queue that could not be read (their topic and why, not the order)", period: `${duration(REFUSED_DELIVERY_MS)} after delivery`, then: "Deleted." },
    { what: "Data request reports", period: `${duration(DATA_REQUEST_REPORT_MS)} after the report is ready`, then: "The report and who asked are deleted; the request's date and status stay." },
    { what: "Everything else of the shop", period: "until Shopify's shop/redact, 48 hours after the app is uninstalled", then: "Deleted." },
  ];
}
