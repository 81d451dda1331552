import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";
import { jobKey } from "../../platform/queue/job-row";
import { referralEventParamsSchema } from "./referral-event";

// What each order job carries: checked when an order webhook makes the job
// and again when the job runs. Kept apart from the job handlers so that the
// SQLite intake thread, which makes these jobs, loads no more than this.

/** The jobs of one order run one at a time, in the order Shopify triggered them (see claimJobs). */
export function orderLane(shop: string, orderId: string): string {
  return `${shop}:order:${orderId}`;
}

const ofOrder = (shop: string, { orderId }: { orderId: string }) => orderLane(shop, orderId);

/** The order's event as the intake stored it: what the referral decision reads. */
export const storedEventSchema = z.object({
  campaignUids: z.array(z.string()),
  /**
   * Where params.shortCode came from, in jobs queued before the intake kept
   * every signal and left the choice to the job. New events carry null: the
   * previous release's workers require the key, should one still run beside
   * new ones during a deploy (test/domains/referrals/previous-release-jobs.test.ts).
   */
  codeSource: z.enum(["cart_attribute", "landing_site"]).nullable().default(null),
  params: referralEventParamsSchema,
  // Absent from jobs queued before the app read every code.
  signals: z
    .object({
      cartAttribute: z.string().optional(),
      landingPage: z.string().optional(),
      discountCodes: z.array(z.string()),
      // The web pixel's signal the intake found stored; absent when it found none (the job then reads it: record-order.server.ts).
      pixel: z.object({ code: z.string(), campaign: z.string().nullable() }).optional(),
    })
    .optional(),
  buyer: z.object({ phone: z.string().optional(), address: z.string().optional(), ordersCount: z.number().optional() }).optional(),
  checkoutToken: z.string().optional(),
  /** What marks the order a subscription renewal (repeat-purchase.ts, renewalSignal); absent when nothing does. */
  renewal: z.string().optional(),
  /** Nothing on the order marks it a renewal, but its source or tags suggest a subscription: its line items' selling plan may. */
  maySubscribe: z.boolean().optional(),
});

export type StoredEvent = z.infer<typeof storedEventSchema>;

/** Records an order at the referral service (record-order.server.ts). */
export const RECORD_ORDER_JOB = defineJobKind({
  name: "order.record",
  payload: z.object({ orderId: z.string(), event: storedEventSchema }),
  lane: ofOrder,
});

/** Denies the commission of a cancelled order (cancel-order.server.ts). */
export const CANCEL_ORDER_JOB = defineJobKind({
  name: "order.cancel",
  payload: z.object({
    orderId: z.string(),
    /** Shopify's financial_status of the cancelled order; absent from jobs queued before it was kept. */
    financialStatus: z.string().optional(),
  }),
  lane: ofOrder,
});

/** Lowers the commission of a refunded order (refund-order.server.ts). */
export const REFUND_ORDER_JOB = defineJobKind({
  name: "order.refund",
  payload: z.object({
    orderId: z.string(),
    refundId: z.string(),
    /** Merchandise value given back, tax included when the order's prices include it. */
    amount: z.string(),
    /** The tax within `amount` (taken out when the order's revenue was taken without tax). */
    tax: z.string().optional(),
  }),
  lane: ofOrder,
});

/** Approves the order's pending commission when the shop's review window ends (review-window.server.ts); one per order, in the order's lane after its refunds and cancellation. */
export const REVIEW_APPROVE_JOB = defineJobKind({
  name: "order.review-approve",
  payload: z.object({ orderId: z.string() }),
  lane: ofOrder,
});

/** A web pixel signal looking for its order. No longer made (the shop's sweep joins signals, pixel-signals.server.ts); those queued before run once. */
export const PIXEL_MATCH_JOB = defineJobKind({
  name: "pixel.match",
  payload: z.object({ checkoutToken: z.string(), orderId: z.string().nullable(), receivedAt: z.string() }),
});

/**
 * The shop's sweep (pixel-signals.server.ts): joins the orders waiting for a web pixel signal with the signals
 * stored meanwhile, ends the wait of those whose window is over, and deletes old signals; at most once a minute per shop.
 */
export const PIXEL_SWEEP_JOB = defineJobKind({ name: "pixel.sweep", payload: z.object({}) });

/** The kinds that stand for a change to an order after it was placed. */
export const ORDER_CHANGE_KINDS = [CANCEL_ORDER_JOB.name, REFUND_ORDER_JOB.name];

/** A refund job's subject: one job per refund of an order. */
export const refundSubject = (orderId: string, refundId: string) => `${orderId}:${refundId}`;

/** The key of an order's recording job. */
export const recordJobKey = (shop: string, orderId: string) => jobKey(shop, RECORD_ORDER_JOB.name, orderId);

/** Every job of these orders: their recording, their cancellation and their refunds. */
export function jobsOfOrders(shop: string, orderIds: readonly string[]): Prisma.JobWhereInput {
  return { shop, OR: keysOfOrderJobs(shop, orderIds) };
}

/** The keys of these orders' jobs, as conditions to OR together: each one is read through the key's index. */
export function keysOfOrderJobs(shop: string, orderIds: readonly string[]): Prisma.JobWhereInput[] {
  if (orderIds.length === 0) return [];
  return [
    { key: { in: orderIds.flatMap((id) => [recordJobKey(shop, id), jobKey(shop, CANCEL_ORDER_JOB.name, id)]) } },
    // The range lets SQLite use the key's index (its LIKE ignores case, so startsWith alone cannot); startsWith keeps the match exact whatever the collation.
    ...orderIds.map((id) => {
      const prefix = jobKey(shop, REFUND_ORDER_JOB.name, `${id}:`);
      return { key: { startsWith: prefix, gte: prefix, lt: `${prefix}\uffff` } };
    }),
  ];
}
