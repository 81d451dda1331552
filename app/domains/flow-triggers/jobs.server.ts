import { defineJob } from "../../platform/queue/registry";
import { FLOW_TRIGGER_JOB } from "./job-kinds";
import { sendFlowTrigger, type FlowTriggerJobContext } from "./send-trigger.server";

export type { FlowTriggerJobContext };

export const flowTriggerJobs = [
  defineJob(FLOW_TRIGGER_JOB, {
    handle: (ctx: FlowTriggerJobContext, shop, payload, job) => sendFlowTrigger(ctx, shop, payload, job),
  }),
];
