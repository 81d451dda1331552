import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";

/** How often each shop's orders are read back from Shopify, unless RECONCILE_INTERVAL_MS says otherwise. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 5 * 60_000;
/** How far before its watermark a pass starts reading, unless RECONCILE_OVERLAP_MS says otherwise. */
export const DEFAULT_RECONCILE_OVERLAP_MS = 10 * 60_000;

/** A shop's reconciliation passes and backfill run one at a time: both move the same state. */
export function orderSyncLane(shop: string): string {
  return `order-sync:${shop}`;
}

/** One pass of reconciliation: the shop's orders updated since the watermark (see reconcile.server.ts). */
export const RECONCILE_JOB = defineJobKind({ name: "orders.reconcile", payload: z.object({}), lane: orderSyncLane });

/** The orders of the last N days, sent once on the merchant's request (see backfill.server.ts). */
export const BACKFILL_JOB = defineJobKind({ name: "orders.backfill", payload: z.object({ startedAt: z.string() }), lane: orderSyncLane });
