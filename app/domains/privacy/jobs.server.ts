import type { PrismaClient } from "@prisma/client";
import type { z } from "zod";
import { REFERRAL_SERVICE } from "../connection";
import type { JobKind } from "../../platform/queue/job-kind";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import { defineJob } from "../../platform/queue/registry";
import { buildDataRequestReport, markDataRequest } from "./export-report.server";
import { PRIVACY_CUSTOMER_REDACT_JOB, PRIVACY_EXPORT_JOB, PRIVACY_PURGE_JOB, PRIVACY_REDACT_JOB } from "./job-kinds";
import { purgeExpired, schedulePurge } from "./purge.server";
import { KEY_LOST, runCustomerRedact } from "./redact-customer.server";
import type { PrivacyJobContext } from "./privacy-job-context";
import { eraseAtService, noteErasureProblem } from "./service-erasure.server";

export type { PrivacyJobContext } from "./privacy-job-context";

/** Where a privacy job's retries and final failure are shown to the merchant (the Data requests page). */
type Note = (db: PrismaClient, shop: string, id: string, change: { failed: boolean; reason: string }) => Promise<void>;

/** A privacy job over one row (a data request, a redaction), which `id` finds in its payload. */
function privacyJob<P>(
  kind: JobKind<string, z.ZodType<P>>,
  id: (payload: P) => string,
  handle: (ctx: PrivacyJobContext, shop: string, id: string) => Promise<JobOutcome>,
  note: Note,
) {
  return defineJob(kind, {
    rateLimitGroup: REFERRAL_SERVICE,
    handle: (ctx: PrivacyJobContext, shop, payload) => handle(ctx, shop, id(payload)),
    onFailed: (ctx: PrivacyJobContext, shop, payload, reason) => note(ctx.db, shop, id(payload), { failed: true, reason }),
    onAttempt: (ctx: PrivacyJobContext, shop, payload, _attempts, reason) => note(ctx.db, shop, id(payload), { failed: false, reason }),
  });
}

export const privacyJobs = [
  privacyJob(PRIVACY_EXPORT_JOB, (payload) => payload.dataRequestId, buildDataRequestReport, markDataRequest),
  privacyJob(PRIVACY_REDACT_JOB, (payload) => payload.redactionId, eraseAtService, noteErasureProblem),
  // Local work only: no rate limit group, and a shop whose service connection is paused still gets it done.
  defineJob(PRIVACY_CUSTOMER_REDACT_JOB, {
    local: true,
    async handle(ctx: PrivacyJobContext, shop, payload) {
      const result = await runCustomerRedact(ctx, shop, payload, null);
      return "unreadable" in result ? { type: "fail", reason: KEY_LOST } : done;
    },
  }),
  defineJob(PRIVACY_PURGE_JOB, {
    local: true,
    async handle(ctx: PrivacyJobContext) {
      // The next run is queued first, so that one failing run does not end the schedule.
      await schedulePurge(ctx.db, ctx.now());
      const counts = await purgeExpired(ctx.db, ctx.now());
      ctx.logger.info(counts, "retention purge");
      return done;
    },
  }),
];
