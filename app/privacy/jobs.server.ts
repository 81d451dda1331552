import { REFERRAL_SERVICE } from "../connection/service-outcome";
import { defineJob } from "../queue/registry";
import type { PrivacyJobContext } from "./privacy-job-context";
import { buildDataRequestReport, markDataRequest } from "./export-report.server";
import { PRIVACY_EXPORT_JOB, PRIVACY_REDACT_JOB } from "./job-kinds";
import { eraseAtService, noteErasureProblem } from "./service-erasure.server";

export type { PrivacyJobContext } from "./privacy-job-context";

export const privacyJobs = [
  defineJob(PRIVACY_EXPORT_JOB, {
    rateLimitGroup: REFERRAL_SERVICE,
    handle: (ctx: PrivacyJobContext, shop, { dataRequestId }) => buildDataRequestReport(ctx, shop, dataRequestId),
    async onFailed(ctx: PrivacyJobContext, shop, { dataRequestId }, reason) {
      await markDataRequest(ctx.db, shop, dataRequestId, { failed: true, reason });
    },
    async onAttempt(ctx: PrivacyJobContext, shop, { dataRequestId }, _attempts, reason) {
      await markDataRequest(ctx.db, shop, dataRequestId, { failed: false, reason });
    },
  }),
  defineJob(PRIVACY_REDACT_JOB, {
    rateLimitGroup: REFERRAL_SERVICE,
    handle: (ctx: PrivacyJobContext, shop, { redactionId }) => eraseAtService(ctx, shop, redactionId),
    async onFailed(ctx: PrivacyJobContext, shop, { redactionId }, reason) {
      await noteErasureProblem(ctx.db, shop, redactionId, { failed: true, reason });
    },
    async onAttempt(ctx: PrivacyJobContext, shop, { redactionId }, _attempts, reason) {
      await noteErasureProblem(ctx.db, shop, redactionId, { failed: false, reason });
    },
  }),
];
