import { z } from "zod";
import { COMMISSION_BULK_JOB_PAYLOADS } from "../admin/job-kinds";
import { OFFER_JOB_PAYLOADS } from "../offers/job-kinds";
import { ORDER_SYNC_JOB_PAYLOADS } from "../order-sync/job-kinds";
import { PRIVACY_EXPORT_JOB, PRIVACY_REDACT_JOB } from "../privacy/job-kinds";
import { ORDER_JOB_PAYLOADS, PIXEL_JOB_PAYLOADS } from "../referrals/job-kinds";
import { SERVICE_EVENT_JOB } from "../service-events/job-kinds";

/**
 * Every job kind and what its payload holds: all that storing a job needs,
 * without the handlers that run it (the registry), so the queue sits below
 * the code that enqueues.
 */
export const JOB_PAYLOADS = {
  ...ORDER_JOB_PAYLOADS,
  ...PIXEL_JOB_PAYLOADS,
  ...OFFER_JOB_PAYLOADS,
  ...ORDER_SYNC_JOB_PAYLOADS,
  ...COMMISSION_BULK_JOB_PAYLOADS,
  [PRIVACY_EXPORT_JOB]: z.object({ dataRequestId: z.string() }),
  [PRIVACY_REDACT_JOB]: z.object({ redactionId: z.string() }),
  [SERVICE_EVENT_JOB]: z.object({ serviceEventId: z.string() }),
} as const;

export type JobKind = keyof typeof JOB_PAYLOADS;
export type JobPayload<K extends JobKind> = z.input<(typeof JOB_PAYLOADS)[K]>;
