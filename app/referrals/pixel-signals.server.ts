import type { PrismaClient } from "@prisma/client";
import { insertJob, enqueueJob, isUniqueViolation } from "../queue/enqueue.server";
import { ANY_STATUS, requeueJob } from "../queue/shop-jobs.server";
import { notifyJobEnqueued } from "../queue/wake";
import { PIXEL_MATCH_JOB, RECORD_ORDER_JOB, recordJobKey, storedEventSchema } from "./job-kinds";
import { parseJsonObject, type CampaignResults } from "./order-records.server";
import type { PixelSignalInput } from "./pixel-signal";

// The web pixel's signal (extensions/referral-pixel) joined with its order on
// the checkout token, whichever arrives first:
// - signal first: the order's job reads it when it runs (findPixelSignal);
// - order first and judged not referred: the signal re-opens the order and
//   queues its one order.record job again (same key), so the service is still
//   asked at most once per order and counts it once (transaction_uid).
// A pixel.match job looks again a little later, for the races in between
// (an intake or a job deciding while the signal is stored) and for an order
// whose webhook comes later than its signal.

/** How long after a signal pixel.match keeps looking for its order: longer than Shopify retries a webhook (4 h). */
export const PIXEL_MATCH_WINDOW_MS = 6 * 60 * 60_000;
/** The first look, after the signal; later ones wait as long as the signal's age, up to the cap. */
export const PIXEL_MATCH_FIRST_LOOK_MS = 5_000;
const PIXEL_MATCH_CAP_MS = 10 * 60_000;

export interface PixelSignalFound {
  code: string;
  campaign: string | null;
}

/** The signal of an order: by its checkout token, else by its id. */
export async function findPixelSignal(db: PrismaClient, shop: string, checkoutToken: string | undefined | null, orderId: string): Promise<PixelSignalFound | null> {
  const match = checkoutToken ? [{ checkoutToken }, { orderId }] : [{ orderId }];
  return db.pixelSignal.findFirst({ where: { shop, OR: match }, orderBy: { createdAt: "asc" }, select: { code: true, campaign: true } });
}

interface RecordForSignal {
  orderId: string;
  status: string;
  heldEvent: string | null;
  results: string | null;
}

function recordForSignal(db: PrismaClient, shop: string, checkoutToken: string, orderId: string | null): Promise<RecordForSignal | null> {
  const match = orderId ? [{ checkoutToken }, { orderId }] : [{ checkoutToken }];
  return db.orderRecord.findFirst({ where: { shop, OR: match }, select: { orderId: true, status: true, heldEvent: true, results: true } });
}

/**
 * Puts an order judged not referred back in the queue, for its job to judge
 * again with the pixel's code. False when it is not (or no longer) not
 * referred, or when nothing is left to send it with.
 */
export async function reopenForSignal(db: PrismaClient, shop: string, record: RecordForSignal, now: Date): Promise<boolean> {
  if (record.status !== "not_referred") return false;
  const { orderId } = record;
  const key = recordJobKey(shop, orderId);
  const reopened = await db.$transaction(async (tx) => {
    const job = await tx.job.findUnique({ where: { key }, select: { id: true } });
    const held = record.heldEvent ? storedEventSchema.safeParse(JSON.parse(record.heldEvent)) : null;
    if (!job && !held?.success) return false;
    // Campaigns settled as not referred are asked again; any other result stands.
    const results = parseJsonObject<CampaignResults>(record.results);
    for (const [uid, result] of Object.entries(results)) if (result.state === "not_referred") delete results[uid];
    const flipped = await tx.orderRecord.updateMany({
      where: { shop, orderId, status: "not_referred" },
      data: { status: "queued", statusReason: "The web pixel sent a referral code for this order: it is being judged again", results: JSON.stringify(results), heldEvent: null },
    });
    if (flipped.count === 0) return false;
    if (job) await requeueJob(tx, key, now, ANY_STATUS);
    else await insertJob(tx, RECORD_ORDER_JOB, { shop, subject: orderId, payload: { orderId, event: held!.data! }, triggeredAt: now, runAt: now });
    return true;
  });
  if (reopened) notifyJobEnqueued();
  return reopened;
}

export type SignalOutcome = "stored" | "repeat" | "unknown_shop";

/** Stores a signal from the endpoint and joins it with its order if that is here already. */
export async function acceptPixelSignal(db: PrismaClient, signal: PixelSignalInput, now: Date): Promise<SignalOutcome> {
  const shop = await db.shop.findUnique({ where: { shop: signal.shop }, select: { uninstalledAt: true } });
  if (!shop || shop.uninstalledAt) return "unknown_shop";
  try {
    await db.pixelSignal.create({
      data: { shop: signal.shop, checkoutToken: signal.checkoutToken, orderId: signal.orderId, code: signal.code, campaign: signal.campaign, createdAt: now },
    });
  } catch (error) {
    // The first signal of a checkout stands: a repeat (a reloaded thank-you page) changes nothing.
    if (isUniqueViolation(error)) return "repeat";
    throw error;
  }
  await matchPixelSignal(db, signal.shop, { checkoutToken: signal.checkoutToken, orderId: signal.orderId, receivedAt: now.toISOString() }, now, true);
  return "stored";
}

export type MatchPayload = { checkoutToken: string; orderId: string | null; receivedAt: string };

/**
 * Joins a signal with its order: re-opens it when it was judged not referred.
 * The wait before the next look, or null when there is nothing more to do.
 */
export async function matchPixelSignal(db: PrismaClient, shop: string, payload: MatchPayload, now: Date, fromEndpoint = false): Promise<number | null> {
  const record = await recordForSignal(db, shop, payload.checkoutToken, payload.orderId);
  if (record?.status === "not_referred") {
    await reopenForSignal(db, shop, record, now);
    return null;
  }
  // Recorded, blocked, skipped or failed: settled without needing the signal, or its job reads it on a retry.
  if (record && record.status !== "queued") return null;
  const age = now.getTime() - Date.parse(payload.receivedAt);
  if (age > PIXEL_MATCH_WINDOW_MS) return null;
  const wait = Math.min(PIXEL_MATCH_CAP_MS, Math.max(PIXEL_MATCH_FIRST_LOOK_MS, age));
  if (fromEndpoint) {
    // No order yet, or its job may be judging it right now: look again shortly.
    await enqueueJob(db, PIXEL_MATCH_JOB, { shop, subject: payload.checkoutToken, payload, runAt: new Date(now.getTime() + wait) });
  }
  return wait;
}
