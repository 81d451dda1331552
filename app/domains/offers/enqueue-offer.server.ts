import type { PrismaClient } from "@prisma/client";
import { randomUUID } from "node:crypto";
import { enqueueJob } from "../../platform/queue/enqueue.server";
import { OFFER_RESYNC_MS, OFFER_SYNC_JOB } from "./job-kinds";

/** A sync of the offer now (the merchant changed it, or the app was connected). */
export function enqueueOfferSync(db: PrismaClient, shop: string, campaignUid: string, now = new Date()): Promise<boolean> {
  return enqueueJob(db, OFFER_SYNC_JOB, {
    shop,
    subject: `${campaignUid}:now:${now.getTime()}:${randomUUID().slice(0, 8)}`,
    payload: { campaignUid },
    triggeredAt: now,
  });
}

/** The next scheduled sync; one per period, however often it is asked for. */
export function scheduleOfferSync(db: PrismaClient, shop: string, campaignUid: string, now: Date): Promise<boolean> {
  const slot = Math.floor(now.getTime() / OFFER_RESYNC_MS) + 1;
  const runAt = new Date(slot * OFFER_RESYNC_MS);
  return enqueueJob(db, OFFER_SYNC_JOB, {
    shop,
    subject: `${campaignUid}:scheduled:${slot}`,
    payload: { campaignUid },
    runAt,
  });
}

/** A job that adds one ambassador's code to one offer; false when the same job is already queued. */
function enqueueCodeOf(db: PrismaClient, shop: string, campaignUid: string, email: string, subject: string, now: Date): Promise<boolean> {
  return enqueueJob(db, OFFER_SYNC_JOB, {
    shop,
    subject,
    payload: { campaignUid, email },
    triggeredAt: now,
  });
}

/** A new ambassador's code, added at once to every offer of the shop. */
export async function enqueueAmbassadorCode(db: PrismaClient, shop: string, email: string, now = new Date()): Promise<number> {
  const offers = await db.friendOffer.findMany({ where: { shop }, select: { campaignUid: true } });
  let queued = 0;
  for (const { campaignUid } of offers) {
    if (await enqueueCodeOf(db, shop, campaignUid, email, `${campaignUid}:ambassador:${email.toLowerCase()}:${now.getTime()}`, now)) queued += 1;
  }
  return queued;
}

/**
 * An ambassador the app has just seen (enrolled from the storefront or the
 * thank-you page): their code joins, at once, each offer of the shop that
 * does not hold it yet. Asked on every fresh look-up, so it queues nothing
 * once the codes are known.
 */
export async function enqueueMissingAmbassadorCode(db: PrismaClient, shop: string, email: string, now = new Date()): Promise<number> {
  const offers = await db.friendOffer.findMany({ where: { shop }, select: { campaignUid: true } });
  if (offers.length === 0) return 0;
  const held = await db.offerCode.findMany({ where: { shop, email: { in: [...new Set([email, email.toLowerCase()])] } }, select: { campaignUid: true } });
  const missing = offers.filter((offer) => !held.some((code) => code.campaignUid === offer.campaignUid));
  let queued = 0;
  for (const { campaignUid } of missing) {
    // One waiting job per ambassador and offer, however often they are looked up meanwhile.
    if (await enqueueCodeOf(db, shop, campaignUid, email, `${campaignUid}:seen:${email.toLowerCase()}`, now)) queued += 1;
  }
  return queued;
}

/** After the service is connected (again): every offer of the shop is brought in step now. */
export async function enqueueShopOfferSyncs(db: PrismaClient, shop: string, now = new Date()): Promise<number> {
  const offers = await db.friendOffer.findMany({ where: { shop }, select: { campaignUid: true } });
  let queued = 0;
  for (const { campaignUid } of offers) if (await enqueueOfferSync(db, shop, campaignUid, now)) queued += 1;
  return queued;
}

/** Every offer of the shop has its next scheduled sync (one per period, however often it is asked for). */
export async function scheduleShopOfferSyncs(db: PrismaClient, shop: string, now: Date): Promise<number> {
  const offers = await db.friendOffer.findMany({ where: { shop }, select: { campaignUid: true } });
  let queued = 0;
  for (const { campaignUid } of offers) if (await scheduleOfferSync(db, shop, campaignUid, now)) queued += 1;
  return queued;
}
