import { REFERRAL_SERVICE } from "../connection";
import type { ShopClient } from "../connection";
import { done } from "../../platform/queue/outcome";
import { defineJob, type QueueContext } from "../../platform/queue/registry";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import type { FlowAction } from "./flow-request";
import { FLOW_ACTION_JOB } from "./job-kinds";
import { runFlowAction } from "./run-action.server";

/** What the Flow actions' job is given. */
export interface FlowActionJobContext extends QueueContext {
  clientForShop(shop: string): Promise<ShopClient>;
  adminForShop: AdminForShop;
}

async function finishRun(ctx: FlowActionJobContext, shop: string, actionRunId: string, state: "done" | "failed", detail: string) {
  await ctx.db.flowActionRun.updateMany({ where: { shop, actionRunId }, data: { state, detail, finishedAt: ctx.now() } });
}

export const flowActionJobs = [
  defineJob(FLOW_ACTION_JOB, {
    rateLimitGroup: REFERRAL_SERVICE,
    async handle(ctx: FlowActionJobContext, shop, { actionRunId }) {
      const run = await ctx.db.flowActionRun.findUnique({ where: { shop_actionRunId: { shop, actionRunId } } });
      if (!run || run.state !== "queued") return done;
      const step = await runFlowAction(ctx, shop, JSON.parse(run.payload) as FlowAction);
      if (step.finished) await finishRun(ctx, shop, actionRunId, step.finished.state, step.finished.detail);
      // The run's detail (on the Service events page) names the customer or order: the log line says only how it went.
      ctx.logger.info({ shop, actionRunId, handle: run.handle, outcome: step.outcome.type, state: step.finished?.state }, "flow action run");
      return step.outcome;
    },
    async onFailed(ctx: FlowActionJobContext, shop, { actionRunId }, reason) {
      await ctx.db.flowActionRun.updateMany({ where: { shop, actionRunId, state: "queued" }, data: { state: "failed", detail: `Stopped: ${reason}`, finishedAt: ctx.now() } });
    },
    async onAttempt(ctx: FlowActionJobContext, shop, { actionRunId }, attempts, reason) {
      await ctx.db.flowActionRun.updateMany({ where: { shop, actionRunId, state: "queued" }, data: { detail: `Attempt ${attempts} failed, trying again: ${reason}` } });
    },
  }),
];
