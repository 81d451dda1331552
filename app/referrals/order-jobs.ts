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
    }),
  }),
  "order.cancel": z.object({ orderId: z.string() }),
  "order.refund": z.object({ orderId: z.string(), refundId: z.string(), amount: z.string() }),
};

export type OrderJobKind = keyof typeof ORDER_JOB_PAYLOADS;

/** The jobs of one order run one at a time, in the order Shopify triggered them (see claimNextJob). */
export function orderLane(shop: string, orderId: string): string {
  return `${shop}:order:${orderId}`;
}
