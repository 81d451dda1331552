import { z } from "zod";
import { referralEventParamsSchema } from "./referral-event";

/**
 * What each order job carries: checked when an order webhook makes the job
 * and again when the job runs. Kept apart from the job handlers so that the
 * SQLite intake thread, which makes these jobs, loads no more than this.
 */
export const ORDER_JOB_PAYLOADS = {
  "order.record": z.object({
    orderId: z.string(),
    event: z.object({
      campaignUids: z.array(z.string()),
      codeSource: z.enum(["cart_attribute", "landing_site"]).nullable(),
      params: referralEventParamsSchema,
      // Absent from jobs queued before the app read every code.
      signals: z
        .object({ cartAttribute: z.string().optional(), landingPage: z.string().optional(), discountCodes: z.array(z.string()) })
        .optional(),
      buyer: z.object({ phone: z.string().optional(), address: z.string().optional(), ordersCount: z.number().optional() }).optional(),
      checkoutToken: z.string().optional(),
    }),
  }),
  "order.cancel": z.object({ orderId: z.string() }),
  "order.refund": z.object({
    orderId: z.string(),
    refundId: z.string(),
    /** Merchandise value given back, tax included when the order's prices include it. */
    amount: z.string(),
    /** The tax within `amount` (taken out when the order's revenue was taken without tax). */
    tax: z.string().optional(),
  }),
};

export const PIXEL_MATCH_JOB = "pixel.match";

export const PIXEL_JOB_PAYLOADS = {
  /** A web pixel signal looking for its order (app/referrals/pixel-signals.server.ts). */
  [PIXEL_MATCH_JOB]: z.object({ checkoutToken: z.string(), orderId: z.string().nullable(), receivedAt: z.string() }),
};

export type OrderJobKind = keyof typeof ORDER_JOB_PAYLOADS;

/** The jobs of one order run one at a time, in the order Shopify triggered them (see claimNextJob). */
export function orderLane(shop: string, orderId: string): string {
  return `${shop}:order:${orderId}`;
}
