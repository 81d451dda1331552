import { REFERRAL_SERVICE } from "../connection/service-outcome";
import type { ShopClient } from "../connection/shop-client.server";
import { defineJob, type QueueContext } from "../queue/registry";
import { buildDataRequestReport, markDataRequest } from "./export-report.server";
import { PRIVACY_EXPORT_JOB, PRIVACY_REDACT_JOB } from "./job-kinds";
import { eraseAtService, noteErasureProblem } from "./service-erasure.server";

/** What the privacy jobs are given. */
export interface PrivacyJobContext extends QueueContext {
  clientForShop(shop: string): Promise<ShopClient>;
  /** CREDENTIALS_KEY: opens the sealed email of a customer waiting for erasure. */
  credentialsKey: string;
}

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
