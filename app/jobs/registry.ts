import type { z } from "zod";
import type { JobContext } from "./context";
import { cancelOrderJob } from "./handlers/cancel-order.server";
import { commissionBulkJob } from "./handlers/commission-bulk.server";
import { offerSyncJob } from "./handlers/offer.server";
import { backfillJob, reconcileJob } from "./handlers/order-sync.server";
import { pixelMatchJob } from "./handlers/pixel-match.server";
import { privacyExportJob, privacyRedactJob } from "./handlers/privacy.server";
import { recordOrderJob } from "./handlers/record-order.server";
import { refundOrderJob } from "./handlers/refund-order.server";
import { serviceEventJob } from "./handlers/service-event.server";
import type { JobOutcome } from "./outcome";

export interface JobDefinition<Schema extends z.ZodType> {
  kind: string;
  payload: Schema;
  handle(ctx: JobContext, shop: string, payload: z.infer<Schema>): Promise<JobOutcome>;
  /** Reflect the job's final failure where the merchant looks (the order's record). */
  onFailed?(ctx: JobContext, shop: string, payload: z.infer<Schema>, reason: string, attempts: number): Promise<void>;
  /** Reflect an attempt that will be retried or a pause. */
  onAttempt?(ctx: JobContext, shop: string, payload: z.infer<Schema>, attempts: number, reason: string): Promise<void>;
}

export const JOBS = {
  [recordOrderJob.kind]: recordOrderJob,
  [cancelOrderJob.kind]: cancelOrderJob,
  [refundOrderJob.kind]: refundOrderJob,
  [privacyExportJob.kind]: privacyExportJob,
  [privacyRedactJob.kind]: privacyRedactJob,
  [serviceEventJob.kind]: serviceEventJob,
  [offerSyncJob.kind]: offerSyncJob,
  [reconcileJob.kind]: reconcileJob,
  [backfillJob.kind]: backfillJob,
  [pixelMatchJob.kind]: pixelMatchJob,
  [commissionBulkJob.kind]: commissionBulkJob,
} as const;

export type { JobKind, JobPayload } from "./kinds";

export function jobDefinition(kind: string): JobDefinition<z.ZodType> | undefined {
  return (JOBS as Record<string, JobDefinition<z.ZodType>>)[kind];
}
