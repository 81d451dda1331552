import type { z } from "zod";
import { COMMISSION_BULK_JOB } from "./job-kinds";
import { failCommissionBulk, runCommissionBulk } from "./commission-bulk.server";
import type { JobContext } from "../wiring/job-context";
import { JOB_PAYLOADS } from "../queue/kinds";
import { done, outcomeOfServiceError, type JobOutcome } from "../queue/outcome";

const payload = JOB_PAYLOADS[COMMISSION_BULK_JOB];

/** The Commissions page's approve or deny of every matching commission (app/admin/commission-bulk.server.ts). */
export const commissionBulkJob = {
  kind: COMMISSION_BULK_JOB,
  payload,
  async handle(ctx: JobContext, shop: string, { runId }: z.infer<typeof payload>): Promise<JobOutcome> {
    const access = await ctx.clientForShop(shop);
    if (!access.ok) return { type: "fail", reason: access.reason };
    try {
      await runCommissionBulk({ db: ctx.db, client: access.client, logger: ctx.logger, now: ctx.now }, shop, runId);
    } catch (error) {
      return outcomeOfServiceError(error);
    }
    return done;
  },
  async onFailed(ctx: JobContext, shop: string, { runId }: z.infer<typeof payload>, reason: string): Promise<void> {
    await failCommissionBulk(ctx.db, shop, runId, `Stopped: ${reason}`, ctx.now());
  },
} as const;
