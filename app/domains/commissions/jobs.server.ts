import { REFERRAL_SERVICE, outcomeOfServiceError } from "../connection";
import type { ShopClient } from "../connection";
import { done } from "../../platform/queue/outcome";
import { defineJob, type QueueContext } from "../../platform/queue/registry";
import { failCommissionBulk, runCommissionBulk } from "./commission-bulk.server";
import { COMMISSION_BULK_JOB } from "./job-kinds";

/** What the admin's jobs are given. */
export interface AdminJobContext extends QueueContext {
  clientForShop(shop: string): Promise<ShopClient>;
}

export const adminJobs = [
  /** The Commissions page's approve or deny of every matching commission (commission-bulk.server.ts). */
  defineJob(COMMISSION_BULK_JOB, {
    rateLimitGroup: REFERRAL_SERVICE,
    async handle(ctx: AdminJobContext, shop, { runId }) {
      const access = await ctx.clientForShop(shop);
      if (!access.ok) return { type: "fail", reason: access.reason };
      try {
        await runCommissionBulk({ db: ctx.db, client: access.client, logger: ctx.logger, now: ctx.now }, shop, runId);
      } catch (error) {
        return outcomeOfServiceError(error);
      }
      return done;
    },
    async onFailed(ctx: AdminJobContext, shop, { runId }, reason) {
      await failCommissionBulk(ctx.db, shop, runId, `Stopped: ${reason}`, ctx.now());
    },
  }),
];
