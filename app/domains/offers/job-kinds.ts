import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";

/** How often every offer is brought in step with the program on its own. */
export const OFFER_RESYNC_MS = 6 * 60 * 60_000;

/** Brings one campaign's friend's offer in step (see sync-offer.server.ts); one campaign's offer jobs run one at a time. */
export const OFFER_SYNC_JOB = defineJobKind({
  name: "offer.sync",
  payload: z.object({
    campaignUid: z.string(),
    /** Only this new ambassador's code, without paging through the program. */
    email: z.string().optional(),
  }),
  lane: (shop, { campaignUid }) => `offer:${shop}:${campaignUid}`,
});
