import { defineJob, type QueueContext } from "../../platform/queue/registry";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { SERVICE_EVENT_JOB } from "./job-kinds";
import { markServiceEventFailed, noteServiceEventAttempt, processServiceEvent } from "./process-event.server";

/** What the service-event job is given. */
export interface ServiceEventJobContext extends QueueContext {
  adminForShop: AdminForShop;
  /** SHOPIFY_API_SECRET: keys the hash in an ambassador's enrolment trigger key. */
  appSecret: string;
  /** Tests shorten it; PAYOUT_SETTLE_MS otherwise. */
  payoutSettleMs?: number;
}

export const serviceEventJobs = [
  defineJob(SERVICE_EVENT_JOB, {
    handle: (ctx: ServiceEventJobContext, shop, { serviceEventId }, job) => processServiceEvent({ ...ctx, externalWrite: job.externalWrite }, shop, serviceEventId),
    async onFailed(ctx: ServiceEventJobContext, shop, { serviceEventId }, reason) {
      await markServiceEventFailed(ctx.db, shop, serviceEventId, reason);
    },
    async onAttempt(ctx: ServiceEventJobContext, shop, { serviceEventId }, _attempts, reason) {
      await noteServiceEventAttempt(ctx.db, shop, serviceEventId, reason);
    },
  }),
];
