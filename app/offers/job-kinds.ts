import { z } from "zod";

/** Brings one campaign's friend's offer in step (see app/offers/sync-offer.server.ts). */
export const OFFER_SYNC_JOB = "offer.sync";

export const OFFER_JOB_PAYLOADS = {
  [OFFER_SYNC_JOB]: z.object({
    campaignUid: z.string(),
    /** Only this new ambassador's code, without paging through the program. */
    email: z.string().optional(),
  }),
} as const;

/** How often every offer is brought in step with the program on its own. */
export const OFFER_RESYNC_MS = 6 * 60 * 60_000;

/** One campaign's offer jobs run one at a time. */
export function offerLane(shop: string, campaignUid: string): string {
  return `offer:${shop}:${campaignUid}`;
}
