import type { z } from "zod";
import { SERVICE_EVENT_JOB } from "./job-kinds";
import { markServiceEventFailed, noteServiceEventAttempt, processServiceEvent } from "./process-event.server";
import type { JobContext } from "../wiring/job-context";
import { JOB_PAYLOADS } from "../queue/kinds";
import type { JobOutcome } from "../queue/outcome";

const payload = JOB_PAYLOADS[SERVICE_EVENT_JOB];
type Payload = z.infer<typeof payload>;

export const serviceEventJob = {
  kind: SERVICE_EVENT_JOB,
  payload,
  handle(ctx: JobContext, shop: string, { serviceEventId }: Payload): Promise<JobOutcome> {
    return processServiceEvent({ db: ctx.db, adminForShop: ctx.adminForShop, now: ctx.now }, shop, serviceEventId);
  },
  async onFailed(ctx: JobContext, shop: string, { serviceEventId }: Payload, reason: string) {
    await markServiceEventFailed(ctx.db, shop, serviceEventId, reason);
  },
  async onAttempt(ctx: JobContext, shop: string, { serviceEventId }: Payload, _attempts: number, reason: string) {
    await noteServiceEventAttempt(ctx.db, shop, serviceEventId, reason);
  },
} as const;
