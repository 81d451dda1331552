import type { PrismaClient } from "@prisma/client";
import type { OrderSource } from "../referrals/order-intake";

// The Overview's counts of what reconciliation and the backfill found that
// no webhook had brought. They are counted from the rows the intake stored
// (their arrivedBy), not from its answers: a page stored just before a crash
// is read again after it, and the intake then answers "duplicate" for what
// the first attempt stored. Each row is counted once, by its creation time.

/** The jobs that stand for a cancellation or a refund. */
const CHANGE_KINDS = ["order.cancel", "order.refund"];

export interface FoundSince {
  orders: Record<OrderSource, number>;
  changes: number;
}

/** Adds what was stored since the last count to the shop's counts. Order-sync jobs of a shop run one at a time, so nothing else counts meanwhile. */
export async function countFound(db: PrismaClient, shop: string): Promise<FoundSince> {
  return db.$transaction(async (tx) => {
    const found: FoundSince = { orders: { reconciliation: 0, backfill: 0 }, changes: 0 };
    const state = await tx.orderSync.findUnique({ where: { shop }, select: { countedUntil: true, backfillStartedAt: true } });
    if (!state) return found;
    const where = { shop, arrivedBy: { not: null }, createdAt: { gt: state.countedUntil ?? new Date(0) } };
    const select = { arrivedBy: true, createdAt: true } as const;
    const records = await tx.orderRecord.findMany({ where, select });
    const jobs = await tx.job.findMany({ where: { ...where, kind: { in: CHANGE_KINDS } }, select });
    let until = state.countedUntil;
    for (const row of [...records, ...jobs]) if (!until || row.createdAt > until) until = row.createdAt;
    // A backfill counts the orders it stored itself, not those of one started before it.
    const backfillFrom = state.backfillStartedAt?.getTime() ?? Infinity;
    for (const record of records) {
      if (record.arrivedBy === "reconciliation") found.orders.reconciliation += 1;
      else if (record.arrivedBy === "backfill" && record.createdAt.getTime() >= backfillFrom) found.orders.backfill += 1;
    }
    found.changes = jobs.filter((job) => job.arrivedBy === "reconciliation").length;
    if (until !== state.countedUntil) {
      await tx.orderSync.update({
        where: { shop },
        data: {
          countedUntil: until,
          missedOrders: { increment: found.orders.reconciliation },
          missedChanges: { increment: found.changes },
          backfillAdded: { increment: found.orders.backfill },
        },
      });
    }
    return found;
  });
}
