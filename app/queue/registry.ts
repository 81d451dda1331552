import type { z } from "zod";
import type { JobContext } from "../wiring/job-context";
import { cancelOrderJob } from "../referrals/cancel-order.server";
import { commissionBulkJob } from "../admin/jobs.server";
import { offerSyncJob } from "../offers/jobs.server";
import { backfillJob, reconcileJob } from "../order-sync/jobs.server";
import { pixelMatchJob } from "../referrals/jobs.server";
import { privacyExportJob, privacyRedactJob } from "../privacy/jobs.server";
import { recordOrderJob } from "../referrals/record-order.server";
import { refundOrderJob } from "../referrals/refund-order.server";
import { serviceEventJob } from "../service-events/jobs.server";
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
