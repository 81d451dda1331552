import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";

/**
 * Brings one ambassador's share link metafields on their Shopify customer in
 * step with the referral service (see sync-share-link.server.ts). One
 * ambassador's jobs run one at a time, in the order they were asked for.
 */
export const SHARE_LINK_METAFIELD_JOB = defineJobKind({
  name: "customer-metafield.share-link",
  payload: z.object({
    email: z.string().min(1),
    /** The Shopify customer (gid), when the asker knew it (a signed-in customer). */
    customerId: z.string().optional(),
  }),
  lane: (shop, { email }) => `share-link:${shop}:${email.toLowerCase()}`,
});

/** Asks the share link job for every active ambassador of the program (the option was just turned on). */
export const SHARE_LINK_BACKFILL_JOB = defineJobKind({ name: "customer-metafield.backfill", payload: z.object({}) });
