import type { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { enqueueJob } from "../jobs/enqueue.server";
import { OFFER_RESYNC_MS, OFFER_SYNC_JOB, offerLane } from "./job-kinds";

/** A sync of the offer now (the merchant changed it, or the app was connected). */
export function enqueueOfferSync(db: PrismaClient, shop: string, campaignUid: string, now = new Date()): Promise<boolean> {
  return enqueueJob(db, {
    shop,
    kind: OFFER_SYNC_JOB,
    subject: `${campaignUid}:now:${now.getTime()}:${randomUUID().slice(0, 8)}`,
    payload: { campaignUid },
    lane: offerLane(shop, campaignUid),
    triggeredAt: now,
  });
}

/** The next scheduled sync; one per period, however often it is asked for. */
export function scheduleOfferSync(db: PrismaClient, shop: string, campaignUid: string, now: Date): Promise<boolean> {
  const slot = Math.floor(now.getTime() / OFFER_RESYNC_MS) + 1;
  const runAt = new Date(slot * OFFER_RESYNC_MS);
  return enqueueJob(db, {
    shop,
    kind: OFFER_SYNC_JOB,
    subject: `${campaignUid}:scheduled:${slot}`,
    payload: { campaignUid },
    lane: offerLane(shop, campaignUid),
    runAt,
  });
}

/** A new ambassador's code, added at once to every offer of the shop. */
export async function enqueueAmbassadorCode(db: PrismaClient, shop: string, email: string, now = new Date()): Promise<number> {
  const offers = await db.friendOffer.findMany({ where: { shop }, select: { campaignUid: true } });
  let queued = 0;
  for (const { campaignUid } of offers) {
    const added = await enqueueJob(db, {
      shop,
      kind: OFFER_SYNC_JOB,
      subject: `${campaignUid}:ambassador:${email.toLowerCase()}:${now.getTime()}`,
      payload: { campaignUid, email },
      lane: offerLane(shop, campaignUid),
      triggeredAt: now,
    });
    if (added) queued += 1;
  }
  return queued;
}
