import { z } from "zod";

/** One pass of reconciliation: the shop's orders updated since the watermark (see reconcile.server.ts). */
export const RECONCILE_JOB = "orders.reconcile";
/** The orders of the last N days, sent once on the merchant's request (see backfill.server.ts). */
export const BACKFILL_JOB = "orders.backfill";

export const ORDER_SYNC_JOB_PAYLOADS = {
  [RECONCILE_JOB]: z.object({}),
  [BACKFILL_JOB]: z.object({ startedAt: z.string() }),
} as const;

/** A shop's reconciliation passes and backfill run one at a time: both move the same state. */
export function orderSyncLane(shop: string): string {
  return `order-sync:${shop}`;
}
