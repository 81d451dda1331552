import type { PrismaClient } from "@prisma/client";
import { enqueueJob } from "../../platform/queue/enqueue.server";
import { countFound } from "./found-counts.server";
import { readOrdersPage, searchTime, storeOrdersPage, type OrderSyncDeps } from "./order-pages.server";
import { RECONCILE_JOB } from "./job-kinds";

// Reconciliation: every few minutes, each shop's orders updated since its
// watermark (less an overlap) are read back from Shopify and fed into the
// order intake, so an order whose webhooks never came is found, and one
// that came is not counted again. See docs/decisions/007.

export interface ReconcileSettings {
  intervalMs: number;
  overlapMs: number;
}

/** The first pass of a shop reads at most this far back; older orders are the backfill's. */
export const FIRST_PASS_LOOKBACK_MS = 24 * 60 * 60_000;

/** A shop's place within the interval, so that the passes of many shops do not all start at once. */
function shopOffset(shop: string, intervalMs: number): number {
  let hash = 0;
  for (const char of shop) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % intervalMs;
}

/** The shop's next pass after `now`: its slot, and when it runs. */
export function nextReconcile(shop: string, now: Date, intervalMs: number): { slot: number; runAt: Date } {
  const offset = shopOffset(shop, intervalMs);
  const slot = Math.floor((now.getTime() - offset) / intervalMs) + 1;
  return { slot, runAt: new Date(slot * intervalMs + offset) };
}

/** The shop's next pass; one per interval however often it is asked for. */
export function scheduleReconcile(db: PrismaClient, shop: string, now: Date, intervalMs: number): Promise<boolean> {
  const { slot, runAt } = nextReconcile(shop, now, intervalMs);
  return enqueueJob(db, RECONCILE_JOB, { shop, subject: `pass:${intervalMs}:${slot}`, payload: {}, runAt });
}

/** At start-up: every installed shop has its next pass queued (a shop installed before this feature, too). */
export async function scheduleAllReconciles(db: PrismaClient, now: Date, intervalMs: number): Promise<number> {
  const shops = await db.session.findMany({ where: { isOnline: false }, select: { shop: true }, distinct: ["shop"] });
  let queued = 0;
  for (const { shop } of shops) if (await scheduleReconcile(db, shop, now, intervalMs)) queued += 1;
  return queued;
}

export interface PassResult {
  pages: number;
  orders: number;
  newOrders: number;
  newChanges: number;
}

/** Where the pass starts reading: the watermark less the overlap; for a first pass, the last day since install. */
async function passStart(db: PrismaClient, shop: string, now: Date, overlapMs: number): Promise<Date> {
  const state = await db.orderSync.findUnique({ where: { shop }, select: { watermark: true } });
  if (state?.watermark) return new Date(state.watermark.getTime() - overlapMs);
  const installed = await db.shop.findUnique({ where: { shop }, select: { installedAt: true } });
  const firstPass = now.getTime() - FIRST_PASS_LOOKBACK_MS;
  return new Date(Math.max(firstPass, (installed?.installedAt.getTime() ?? now.getTime()) - overlapMs));
}

/**
 * One pass: pages of orders by update time, each stored before the
 * watermark moves past it. A pass cut short (a crash, an error) leaves the
 * watermark at the last page stored, and the next one starts there.
 */
export async function reconcileShop(deps: OrderSyncDeps, shop: string, settings: ReconcileSettings): Promise<PassResult> {
  const startedAt = deps.now();
  const from = await passStart(deps.db, shop, startedAt, settings.overlapMs);
  const query = `updated_at:>=${searchTime(from)}`;
  const result: PassResult = { pages: 0, orders: 0, newOrders: 0, newChanges: 0 };
  await deps.db.orderSync.upsert({ where: { shop }, create: { shop }, update: {} });
  let after: string | null = null;
  for (;;) {
    const page = await readOrdersPage(deps.admin, query, "UPDATED_AT", after);
    const stored = await storeOrdersPage(deps, shop, page.orders, "reconciliation");
    const latest = page.orders.reduce((max, order) => Math.max(max, Date.parse(order.updatedAt)), 0);
    const state = await deps.db.orderSync.findUniqueOrThrow({ where: { shop }, select: { watermark: true } });
    const watermark = latest > (state.watermark?.getTime() ?? 0) ? new Date(latest) : state.watermark;
    await countFound(deps.db, shop);
    await deps.db.orderSync.update({ where: { shop }, data: { watermark } });
    result.pages += 1;
    result.orders += page.orders.length;
    result.newOrders += stored.newOrders;
    result.newChanges += stored.newChanges;
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) break;
    after = page.pageInfo.endCursor;
  }
  await deps.db.orderSync.update({ where: { shop }, data: { reconciledAt: startedAt, reconcileError: null } });
  return result;
}
