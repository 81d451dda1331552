import { z } from "zod";

/** Approve or deny every pending commission matching a filter (see commission-bulk.server.ts). */
export const COMMISSION_BULK_JOB = "commissions.bulk-decide";

export const COMMISSION_BULK_JOB_PAYLOADS = {
  [COMMISSION_BULK_JOB]: z.object({ runId: z.string() }),
} as const;

/** A shop's bulk decisions run one at a time. */
export function commissionBulkLane(shop: string): string {
  return `commission-bulk:${shop}`;
}
