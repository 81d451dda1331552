import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";

/** Sends one Flow trigger with flowTriggerReceive (send-trigger.server.ts). */
export const FLOW_TRIGGER_JOB = defineJobKind({
  name: "flow.trigger",
  payload: z.object({
    handle: z.string(),
    payload: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  }),
});
