import type { PrismaClient } from "@prisma/client";
import { enqueueJob, isUniqueViolation } from "../../platform/queue/enqueue.server";
import { deleteFinishedJobs } from "../../platform/queue/shop-jobs.server";
import { PIXEL_MATCH_JOB, PIXEL_SWEEP_JOB } from "./job-kinds";
import { readExplanation } from "./explanation";
import { reopenForSignal, type RecordForSignal } from "./order-status.server";
import type { PixelSignalInput } from "./pixel-signal";

// The web pixel's signal (extensions/referral-pixel) joined with its order on
// the checkout token alone, whichever arrives first. Anyone can post a
// signal, so a signal joins only the order of its own checkout: an order id
// it carries must be the token's order, or the signal is ignored.
// - signal first: the order's job reads it with its record when it runs
//   (record-order.server.ts, readOrder), and ignores one that names another order;
// - order first and judged not referred: the signal re-opens the order, if it
//   comes within PIXEL_REOPEN_WINDOW_MS of the order being placed, and queues
//   its one order.record job again (same key), so the service is still asked
//   at most once per order and counts it once (transaction_uid);
// - otherwise (a signal stored while the intake or the job was deciding, or
//   before an order judged not referred at intake, however much later its
//   webhook came): the shop's sweep (sweepPixelSignals) joins them. It runs
//   a minute after a signal that found no order (one sweep job per shop and
//   minute, however many signals) and with every reconciliation pass, and
//   reads the orders judged not referred that a kept signal may re-open.
// No job is made per signal: an unauthenticated request costs one row.

/**
 * A signal re-opens an order judged not referred only this long after the
 * order was placed. The pixel posts at checkout_completed, seconds after the
 * order is placed; half an hour leaves room for a slow network and a
 * reloaded thank-you page, and none for crediting an old order after the fact.
 */
export const PIXEL_REOPEN_WINDOW_MS = 30 * 60_000;
/**
 * Signals are kept this long, then deleted by the sweep: longer than Shopify
 * retries a webhook (4 h), so that a signal still waits for an order whose
 * webhook comes late.
 */
export const PIXEL_SIGNAL_TTL_MS = 6 * 60 * 60_000;
/** A signal that found no order is looked at again by the shop's next sweep, at the end of this slot. */
export const PIXEL_SWEEP_SLOT_MS = 60_000;
/** Orders a sweep reads per query. */
export const PIXEL_SWEEP_BATCH = 500;

export interface PixelSignalFound {
  code: string;
  campaign: string | null;
}

const RECORD_FOR_SIGNAL = { orderId: true, status: true, placedAt: true, createdAt: true, heldEvent: true, results: true, explanation: true } as const;

export type SignalOutcome = "stored" | "repeat" | "unknown_shop";

/** What became of a signal's join with its order. */
export type JoinOutcome = "reopened" | "no_order_yet" | "other_order" | "too_late" | "settled";

/** Joins a signal with the order of its checkout, if that is here: re-opens it when it was judged not referred. */
export async function joinPixelSignal(db: PrismaClient, shop: string, signal: { checkoutToken: string; orderId: string | null; receivedAt: Date }, now: Date): Promise<JoinOutcome> {
  const record = await db.orderRecord.findFirst({ where: { shop, checkoutToken: signal.checkoutToken }, select: RECORD_FOR_SIGNAL });
  if (!record) return "no_order_yet";
  return joinRecord(db, shop, record, signal, now);
}

async function joinRecord(db: PrismaClient, shop: string, record: RecordForSignal, signal: { orderId: string | null; receivedAt: Date }, now: Date): Promise<JoinOutcome> {
  if (signal.orderId !== null && signal.orderId !== record.orderId) return "other_order";
  // Recorded, blocked, skipped or failed: settled without the signal; a queued order's job reads it when it runs.
  if (record.status !== "not_referred") return "settled";
  // Judged by a job that read the signal already: judging again would ask the service the same, at every sweep.
  if (readExplanation(record.explanation)?.signals.some((note) => note.source === "pixel")) return "settled";
  if (signal.receivedAt.getTime() - (record.placedAt ?? record.createdAt).getTime() > PIXEL_REOPEN_WINDOW_MS) return "too_late";
  return (await reopenForSignal(db, shop, record, now)) ? "reopened" : "settled";
}

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
  const joined = await joinPixelSignal(db, signal.shop, { checkoutToken: signal.checkoutToken, orderId: signal.orderId, receivedAt: now }, now);
  if (joined === "no_order_yet") await scheduleSweep(db, signal.shop, now);
  return "stored";
}

/** The shop's sweep at the end of this minute; one per shop and minute, however many signals ask for it. */
function scheduleSweep(db: PrismaClient, shop: string, now: Date): Promise<boolean> {
  const slot = Math.floor(now.getTime() / PIXEL_SWEEP_SLOT_MS) + 1;
  return enqueueJob(db, PIXEL_SWEEP_JOB, { shop, subject: `slot:${slot}`, payload: {}, runAt: new Date(slot * PIXEL_SWEEP_SLOT_MS) });
}

/** Where a batch of the sweep ended: the last order it read. */
type Place = { placedAt: Date; id: string };

/** The next `batch` orders judged not referred placed since `since`, after `after`, oldest first. */
async function notReferredSince(db: PrismaClient, shop: string, since: Date, after: Place | null, batch: number) {
  const records = await db.orderRecord.findMany({
    where: {
      shop,
      status: "not_referred",
      checkoutToken: { not: null },
      placedAt: { gte: since },
      ...(after ? { OR: [{ placedAt: { gt: after.placedAt } }, { placedAt: after.placedAt, id: { gt: after.id } }] } : {}),
    },
    select: { ...RECORD_FOR_SIGNAL, id: true, checkoutToken: true },
    orderBy: [{ placedAt: "asc" }, { id: "asc" }],
    take: batch,
  });
  // The filter leaves out rows without either.
  return records.map((record) => ({ ...record, placedAt: record.placedAt!, checkoutToken: record.checkoutToken! }));
}

/**
 * The shop's sweep: joins each order judged not referred with its
 * checkout's signal, whichever came first and however late the order's
 * webhook came, and deletes the signals no order can join any more.
 * Returns how many orders it re-opened and signals it deleted.
 *
 * It starts from the orders, which only Shopify's webhooks make, never from
 * the signals, which anyone can post: a flood of made-up signals costs it
 * nothing. It reads the orders judged not referred that were placed since
 * the oldest kept signal, less the re-open window (a signal re-opens only an
 * order placed at most that long before it came; joinRecord checks each
 * pair), `batch` at a time through the (shop, placedAt) index, and looks
 * their signals up by checkout token. Rows stored before the app kept
 * placedAt are left out.
 */
export async function sweepPixelSignals(db: PrismaClient, shop: string, now: Date, batch = PIXEL_SWEEP_BATCH): Promise<{ reopened: number; deleted: number }> {
  const since = new Date(now.getTime() - PIXEL_SIGNAL_TTL_MS - PIXEL_REOPEN_WINDOW_MS);
  let reopened = 0;
  let after: Place | null = null;
  for (;;) {
    const records = await notReferredSince(db, shop, since, after, batch);
    if (records.length === 0) break;
    const signals = await db.pixelSignal.findMany({
      where: { shop, checkoutToken: { in: records.map((r) => r.checkoutToken) } },
      select: { checkoutToken: true, orderId: true, createdAt: true },
    });
    const byToken = new Map(signals.map((s) => [s.checkoutToken, s]));
    for (const record of records) {
      const signal = byToken.get(record.checkoutToken);
      if (signal && (await joinRecord(db, shop, record, { orderId: signal.orderId, receivedAt: signal.createdAt }, now)) === "reopened") reopened += 1;
    }
    if (records.length < batch) break;
    after = records[records.length - 1]!;
  }
  const expired = new Date(now.getTime() - PIXEL_SIGNAL_TTL_MS);
  const { count: deleted } = await db.pixelSignal.deleteMany({ where: { shop, createdAt: { lt: expired } } });
  // The sweeps' own finished jobs (one a minute at most) and the older kind's go too.
  for (const kind of [PIXEL_SWEEP_JOB.name, PIXEL_MATCH_JOB.name]) await deleteFinishedJobs(db, shop, kind, expired);
  return { reopened, deleted };
}
