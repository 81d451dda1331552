import type { PrismaClient } from "@prisma/client";
import { enqueueJob, isUniqueViolation } from "../../platform/queue/enqueue.server";
import { deleteFinishedJobs } from "../../platform/queue/shop-jobs.server";
import { PIXEL_MATCH_JOB, PIXEL_SWEEP_JOB } from "./job-kinds";
import { forgetBuyerWithoutLink } from "./leaked-codes.server";
import { AWAITING_SIGNAL, awaitsSignal, endSignalWait, reopenForSignal, type RecordForSignal } from "./order-status.server";
import { PIXEL_REOPEN_WINDOW_MS, PIXEL_SIGNAL_TTL_MS, PIXEL_SWEEP_SLOT_MS, signalFit, sweepSlot, type PixelSignalInput } from "./pixel-signal";

export { PIXEL_REOPEN_WINDOW_MS, PIXEL_SIGNAL_TTL_MS, PIXEL_SWEEP_SLOT_MS } from "./pixel-signal";

// The web pixel's signal (extensions/referral-pixel) joined with its order on
// the checkout token alone, whichever arrives first. Anyone can post a
// signal, so a signal joins only the order of its own checkout: an order id
// it carries must be the token's order, or the signal is ignored.
// - signal first: the order's intake finds it stored (order-intake.ts, one
//   lookup per batch) and queues the order with it; a queued order's job
//   reads it with its record when it runs (record-order.server.ts, readOrder);
// - order first, with no code: the order waits for its signal
//   (awaiting_signal), and the signal, if it comes within
//   PIXEL_REOPEN_WINDOW_MS of the order being placed, queues its one
//   order.record job (same key), so the service is still asked at most once
//   per order and counts it once (transaction_uid);
// - otherwise (a signal stored while the intake or the job was deciding):
//   the shop's sweep (sweepPixelSignals) joins them. It runs a minute after a
//   signal that found no order (one sweep job per shop and minute, however
//   many signals), at the end of each waiting order's window (booked when it
//   began to wait), and with every reconciliation pass; it also ends the wait
//   of the orders whose window is over: they are not referred;
// - order settled first, credited by a code typed without a link: the
//   signal takes its buyer out of the code's leak count (decision 036). Only
//   the buyer's own browser knows the checkout token, and it could as well
//   have posted before the order's job ran.
// No job is made per signal: an unauthenticated request costs one row.

/** Orders a sweep reads per query. */
export const PIXEL_SWEEP_BATCH = 500;

export interface PixelSignalFound {
  code: string;
  campaign: string | null;
}

const RECORD_FOR_SIGNAL = { orderId: true, status: true, placedAt: true, createdAt: true, heldEvent: true, results: true, explanation: true } as const;

export type SignalOutcome = "stored" | "repeat" | "unknown_shop";

/** What became of a signal's join with its order. */
export type JoinOutcome = "reopened" | "no_order_yet" | "deciding" | "other_order" | "too_late" | "settled";

/** Joins a signal with the order of its checkout, if that is here: queues it when it waits for its signal. */
export async function joinPixelSignal(db: PrismaClient, shop: string, signal: { checkoutToken: string; orderId: string | null; receivedAt: Date }, now: Date): Promise<JoinOutcome> {
  const record = await db.orderRecord.findFirst({ where: { shop, checkoutToken: signal.checkoutToken }, select: RECORD_FOR_SIGNAL });
  if (!record) return "no_order_yet";
  return joinRecord(db, shop, record, signal, now);
}

async function joinRecord(db: PrismaClient, shop: string, record: RecordForSignal, signal: { orderId: string | null; receivedAt: Date }, now: Date): Promise<JoinOutcome> {
  const fit = signalFit(signal, { orderId: record.orderId, placedAt: record.placedAt ?? record.createdAt });
  if (fit === "other_order") return fit;
  // Its job reads the signal when it runs; one running now may have read before the signal came.
  if (record.status === "queued") return "deciding";
  // Recorded, not referred, blocked, skipped or failed: settled without the signal. An order credited
  // by a code typed without a link had one after all: its buyer is not one of a leak's (decision 036).
  if (!awaitsSignal(record)) {
    if (fit === "joins") await forgetBuyerWithoutLink(db, { shop, orderId: record.orderId, placedAt: record.placedAt, explanation: record.explanation });
    return "settled";
  }
  if (fit === "too_late") return fit;
  return (await reopenForSignal(db, shop, record, now)) ? "reopened" : "settled";
}

/**
 * The most signals one shop keeps (they live PIXEL_SIGNAL_TTL_MS, 6 h): far
 * above a real shop's checkouts in that time. Past it the oldest go first
 * (decision 030): the endpoint is open to anyone naming the shop, so a
 * refusal once full would lose every real buyer's signal until the oldest
 * expire, where pruning loses only the oldest, mostly joined with their
 * orders already, and the answers stay the same for every shop.
 */
export const MAX_PIXEL_SIGNALS_PER_SHOP = 50_000;

/** Stores a signal from the endpoint and joins it with its order if that is here already. */
export async function acceptPixelSignal(db: PrismaClient, signal: PixelSignalInput, now: Date, maxPerShop = MAX_PIXEL_SIGNALS_PER_SHOP): Promise<SignalOutcome> {
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
  await pruneOldestSignals(db, signal.shop, maxPerShop);
  const joined = await joinPixelSignal(db, signal.shop, { checkoutToken: signal.checkoutToken, orderId: signal.orderId, receivedAt: now }, now);
  // The order not here yet, or its job perhaps deciding without the signal (it then waits for one): the shop's sweep joins them.
  if (joined === "no_order_yet" || joined === "deciding") await scheduleSweep(db, signal.shop, now);
  return "stored";
}

/** Deletes the shop's oldest signals past `maxPerShop`. */
async function pruneOldestSignals(db: PrismaClient, shop: string, maxPerShop: number): Promise<void> {
  const excess = (await db.pixelSignal.count({ where: { shop } })) - maxPerShop;
  if (excess <= 0) return;
  const oldest = await db.pixelSignal.findMany({ where: { shop }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: excess, select: { id: true } });
  await db.pixelSignal.deleteMany({ where: { id: { in: oldest.map((row) => row.id) } } });
}

/** The shop's sweep at the end of this minute; one per shop and minute, however many signals ask for it. */
function scheduleSweep(db: PrismaClient, shop: string, now: Date): Promise<boolean> {
  return enqueueJob(db, PIXEL_SWEEP_JOB, { shop, ...sweepSlot(now), payload: {} });
}

/** Where a batch of the sweep ended: the last order it read. */
type Place = { placedAt: Date; id: string };

/** The next `batch` orders waiting for their signal placed since `since`, after `after`, oldest first. */
async function awaitingSince(db: PrismaClient, shop: string, since: Date, after: Place | null, batch: number) {
  const records = await db.orderRecord.findMany({
    where: {
      shop,
      ...AWAITING_SIGNAL,
      checkoutToken: { not: null },
      placedAt: { gte: since },
      ...(after ? { AND: [{ OR: [{ placedAt: { gt: after.placedAt } }, { placedAt: after.placedAt, id: { gt: after.id } }] }] } : {}),
    },
    select: { ...RECORD_FOR_SIGNAL, id: true, checkoutToken: true },
    orderBy: [{ placedAt: "asc" }, { id: "asc" }],
    take: batch,
  });
  // The filter leaves out rows without either.
  return records.map((record) => ({ ...record, placedAt: record.placedAt!, checkoutToken: record.checkoutToken! }));
}

/**
 * The shop's sweep: joins each order waiting for its signal with its
 * checkout's signal, whichever came first and however late the order's
 * webhook came; ends the wait of the orders whose window is over (not
 * referred); and deletes the signals no order can join any more. Returns
 * how many orders it re-opened and ended the wait of, and signals it deleted.
 *
 * It starts from the orders, which only Shopify's webhooks make, never from
 * the signals, which anyone can post: a flood of made-up signals costs it
 * nothing. It reads the waiting orders placed since the oldest kept signal,
 * less the window (a signal re-opens only an order placed at most that long
 * before it came; joinRecord checks each pair), `batch` at a time through
 * the (shop, placedAt, status) index, and looks their signals up by
 * checkout token. `bookedAt`: when the sweep was booked (a job that ran
 * late reads back to the orders it was booked for). Rows stored before the
 * app kept placedAt are left out.
 */
export async function sweepPixelSignals(
  db: PrismaClient,
  shop: string,
  now: Date,
  { batch = PIXEL_SWEEP_BATCH, bookedAt = now }: { batch?: number; bookedAt?: Date } = {},
): Promise<{ reopened: number; ended: number; deleted: number }> {
  const since = new Date(Math.min(now.getTime() - PIXEL_SIGNAL_TTL_MS, bookedAt.getTime() - PIXEL_SWEEP_SLOT_MS) - PIXEL_REOPEN_WINDOW_MS);
  const waitOver = now.getTime() - PIXEL_REOPEN_WINDOW_MS;
  let reopened = 0;
  let ended = 0;
  let after: Place | null = null;
  for (;;) {
    const records = await awaitingSince(db, shop, since, after, batch);
    if (records.length === 0) break;
    const signals = await db.pixelSignal.findMany({
      where: { shop, checkoutToken: { in: records.map((r) => r.checkoutToken) } },
      select: { checkoutToken: true, orderId: true, createdAt: true },
    });
    const byToken = new Map(signals.map((s) => [s.checkoutToken, s]));
    const over: string[] = [];
    for (const record of records) {
      const signal = byToken.get(record.checkoutToken);
      if (signal && (await joinRecord(db, shop, record, { orderId: signal.orderId, receivedAt: signal.createdAt }, now)) === "reopened") reopened += 1;
      else if (record.placedAt.getTime() < waitOver) over.push(record.orderId);
    }
    ended += await endSignalWait(db, shop, over);
    if (records.length < batch) break;
    after = records[records.length - 1]!;
  }
  const expired = new Date(now.getTime() - PIXEL_SIGNAL_TTL_MS);
  const { count: deleted } = await db.pixelSignal.deleteMany({ where: { shop, createdAt: { lt: expired } } });
  // The sweeps' own finished jobs (one a minute at most) and the older kind's go too.
  for (const kind of [PIXEL_SWEEP_JOB.name, PIXEL_MATCH_JOB.name]) await deleteFinishedJobs(db, shop, kind, expired);
  return { reopened, ended, deleted };
}
