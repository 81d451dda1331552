import type { PrismaClient } from "@prisma/client";
import { ORDER_CHANGE_KINDS } from "../referrals";
import type { OrderSource } from "../referrals";

// The Overview's counts of what reconciliation and the backfill found that
// no webhook had brought. They are counted from the rows the intake stored
// (their arrivedBy), not from its answers: a page stored just before a crash
// is read again after it, and the intake then answers "duplicate" for what
// the first attempt stored. Each row is counted once, by its creation time.

/** The jobs that stand for a cancellation or a refund. */
const CHANGE_KINDS = ORDER_CHANGE_KINDS;

export interface FoundSince {
  orders: Record<OrderSource, number>;
  changes: number;
}

/**
 * Adds what was stored since the last count to the shop's counts. The reads
 * are outside a transaction and the counts move only if no one else moved
 * them meanwhile (a second runner of a job whose lease ran out): one
 * conditional UPDATE, which on SQLite also waits its turn for the write lock
 * rather than failing to upgrade a read.
 */
export async function countFound(db: PrismaClient, shop: string): Promise<FoundSince> {
  for (;;) {
    const state = await db.orderSync.findUnique({ where: { shop }, select: { countedUntil: true, backfillStartedAt: true } });
    const found: FoundSince = { orders: { reconciliation: 0, backfill: 0 }, changes: 0 };
    if (!state) return found;
    const where = { shop, arrivedBy: { not: null }, createdAt: { gt: state.countedUntil ?? new Date(0) } };
    const select = { arrivedBy: true, createdAt: true } as const;
    const records = await db.orderRecord.findMany({ where, select });
    const jobs = await db.job.findMany({ where: { ...where, kind: { in: CHANGE_KINDS } }, select });
    let until = state.countedUntil;
    for (const row of [...records, ...jobs]) if (!until || row.createdAt > until) until = row.createdAt;
    if (until === state.countedUntil) return found;
    // A backfill counts the orders it stored itself, not those of one started before it.
    const backfillFrom = state.backfillStartedAt?.getTime() ?? Infinity;
    for (const record of records) {
      if (record.arrivedBy === "reconciliation") found.orders.reconciliation += 1;
      else if (record.arrivedBy === "backfill" && record.createdAt.getTime() >= backfillFrom) found.orders.backfill += 1;
    }
    found.changes = jobs.filter((job) => job.arrivedBy === "reconciliation").length;
    const moved = await db.orderSync.updateMany({
      where: { shop, countedUntil: state.countedUntil },
      data: {
        countedUntil: until,
        missedOrders: { increment: found.orders.reconciliation },
        missedChanges: { increment: found.changes },
        backfillAdded: { increment: found.orders.backfill },
      },
    });
    if (moved.count === 1) return found;
  }
}
