import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";

/** The Commissions page's approve or deny of every matching commission (commission-bulk.server.ts); one run at a time per shop. */
export const COMMISSION_BULK_JOB = defineJobKind({
  name: "commissions.bulk-decide",
  payload: z.object({ runId: z.string() }),
  lane: (shop) => `commission-bulk:${shop}`,
});
