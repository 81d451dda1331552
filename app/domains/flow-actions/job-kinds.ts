import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";

/** One Flow action run (app/domains/flow-actions/): keyed by Flow's action_run_id, so a delivery Flow repeats runs once. */
export const FLOW_ACTION_JOB = defineJobKind({
  name: "flow.action",
  payload: z.object({ actionRunId: z.string() }),
});
