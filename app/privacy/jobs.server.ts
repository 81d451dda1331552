import type { z } from "zod";
import { getEnv } from "../env.server";
import { buildDataRequestReport, markDataRequest } from "./export-report.server";
import { PRIVACY_EXPORT_JOB, PRIVACY_REDACT_JOB } from "./job-kinds";
import { eraseAtService, noteErasureProblem } from "./service-erasure.server";
import type { JobContext } from "../wiring/job-context";
import { JOB_PAYLOADS } from "../queue/kinds";

const exportPayload = JOB_PAYLOADS[PRIVACY_EXPORT_JOB];
type ExportPayload = z.infer<typeof exportPayload>;

export const privacyExportJob = {
  kind: PRIVACY_EXPORT_JOB,
  payload: exportPayload,
  handle: (ctx: JobContext, shop: string, { dataRequestId }: ExportPayload) => buildDataRequestReport(ctx, shop, dataRequestId),
  async onFailed(ctx: JobContext, shop: string, { dataRequestId }: ExportPayload, reason: string) {
    await markDataRequest(ctx.db, shop, dataRequestId, { failed: true, reason });
  },
  async onAttempt(ctx: JobContext, shop: string, { dataRequestId }: ExportPayload, _attempts: number, reason: string) {
    await markDataRequest(ctx.db, shop, dataRequestId, { failed: false, reason });
  },
} as const;

const redactPayload = JOB_PAYLOADS[PRIVACY_REDACT_JOB];
type RedactPayload = z.infer<typeof redactPayload>;

export const privacyRedactJob = {
  kind: PRIVACY_REDACT_JOB,
  payload: redactPayload,
  handle: (ctx: JobContext, shop: string, { redactionId }: RedactPayload) =>
    eraseAtService(ctx, shop, redactionId, getEnv().CREDENTIALS_KEY),
  async onFailed(ctx: JobContext, shop: string, { redactionId }: RedactPayload, reason: string) {
    await noteErasureProblem(ctx.db, shop, redactionId, { failed: true, reason });
  },
  async onAttempt(ctx: JobContext, shop: string, { redactionId }: RedactPayload, _attempts: number, reason: string) {
    await noteErasureProblem(ctx.db, shop, redactionId, { failed: false, reason });
  },
} as const;
