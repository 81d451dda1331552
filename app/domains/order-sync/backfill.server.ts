import type { PrismaClient } from "@prisma/client";
import { enqueueJob } from "../../platform/queue/enqueue.server";
import { BACKFILL_JOB } from "./job-kinds";
import { countFound } from "./found-counts.server";
import { countOrders, readOrdersPage, searchTime, storeOrdersPage, type OrderSyncDeps } from "./order-pages.server";

// The backfill a merchant asks for on connect: the orders of the last N
// days go through the order intake once, page by page. The cursor after
// each stored page is kept, so a backfill cut short (a deploy, a crash)
// resumes where it stopped, and an order sent twice is a duplicate the
// intake drops.

export const DEFAULT_BACKFILL_DAYS = 30;
/** Shopify shows an app the last 60 days of orders; older ones need the read_all_orders scope. */
export const DAYS_WITHOUT_ALL_ORDERS = 60;
export const MAX_BACKFILL_DAYS = 365;
export const ALL_ORDERS_SCOPE = "read_all_orders";

export type BackfillRequest = { ok: true } | { ok: false; error: string };

/** Whether the shop's offline token carries a scope. */
export async function shopHasScope(db: PrismaClient, shop: string, scope: string): Promise<boolean> {
  const session = await db.session.findFirst({ where: { shop, isOnline: false }, select: { scope: true } });
  return (session?.scope ?? "").split(",").map((s) => s.trim()).includes(scope);
}

/** Starts a backfill of the last `days` days; refused while one runs, or beyond 60 days without read_all_orders. */
export async function startBackfill(db: PrismaClient, shop: string, days: number, now: Date): Promise<BackfillRequest> {
  if (!Number.isInteger(days) || days < 1 || days > MAX_BACKFILL_DAYS) {
    return { ok: false, error: `Choose a number of days from 1 to ${MAX_BACKFILL_DAYS}.` };
  }
  if (days > DAYS_WITHOUT_ALL_ORDERS && !(await shopHasScope(db, shop, ALL_ORDERS_SCOPE))) {
    return {
      ok: false,
      error: `Shopify shows the app only the last ${DAYS_WITHOUT_ALL_ORDERS} days of orders. Older orders need access to all orders (${ALL_ORDERS_SCOPE}): choose Request access to older orders first.`,
    };
  }
  const running = await db.orderSync.findUnique({ where: { shop }, select: { backfillStatus: true } });
  if (running?.backfillStatus === "running") return { ok: false, error: "A backfill is already running; wait for it to finish." };
  const state = {
    backfillStatus: "running",
    backfillDays: days,
    backfillSince: new Date(now.getTime() - days * 86_400_000),
    backfillUntil: now,
    backfillCursor: null,
    backfillTotal: null,
    backfillSeen: 0,
    backfillAdded: 0,
    backfillError: null,
    backfillStartedAt: now,
    backfillFinishedAt: null,
  };
  await db.orderSync.upsert({ where: { shop }, create: { shop, ...state }, update: state });
  await enqueueJob(db, BACKFILL_JOB, {
    shop,
    subject: `run:${now.getTime()}`,
    payload: { startedAt: now.toISOString() },
    triggeredAt: now,
  });
  return { ok: true };
}

/** Shopify's search for the orders of a backfill's period. */
export function backfillQuery(since: Date, until: Date): string {
  return `created_at:>=${searchTime(since)} created_at:<=${searchTime(until)}`;
}

/**
 * Runs (or resumes) the backfill started at `startedAt`: each page is
 * stored and what it added counted, then the cursor and the pages' count
 * move past it in one update.
 */
export async function runBackfill(deps: OrderSyncDeps, shop: string, startedAt: Date): Promise<void> {
  const state = await deps.db.orderSync.findUnique({ where: { shop } });
  if (!state || state.backfillStatus !== "running" || state.backfillStartedAt?.getTime() !== startedAt.getTime()) return;
  const query = backfillQuery(state.backfillSince!, state.backfillUntil!);
  if (state.backfillTotal === null) {
    await deps.db.orderSync.update({ where: { shop }, data: { backfillTotal: await countOrders(deps.admin, query) } });
  }
  let cursor = state.backfillCursor;
  for (;;) {
    const page = await readOrdersPage(deps.admin, query, "CREATED_AT", cursor);
    await storeOrdersPage(deps, shop, page.orders, "backfill");
    await countFound(deps.db, shop);
    const finished = !page.pageInfo.hasNextPage || !page.pageInfo.endCursor;
    const moved = await deps.db.orderSync.updateMany({
      // Only from the cursor this run read: a second runner of the same backfill cannot count a page's orders as seen twice.
      where: { shop, backfillStartedAt: startedAt, backfillCursor: cursor, backfillStatus: "running" },
      data: {
        backfillCursor: finished ? cursor : page.pageInfo.endCursor,
        backfillSeen: { increment: page.orders.length },
        ...(finished ? { backfillStatus: "done", backfillFinishedAt: deps.now() } : {}),
      },
    });
    if (moved.count === 0 || finished) return;
    cursor = page.pageInfo.endCursor;
  }
}

/** Marks the running backfill failed with the merchant's words for why. */
export async function failBackfill(db: PrismaClient, shop: string, startedAt: Date, error: string): Promise<void> {
  await db.orderSync.updateMany({ where: { shop, backfillStartedAt: startedAt, backfillStatus: "running" }, data: { backfillStatus: "failed", backfillError: error } });
}
