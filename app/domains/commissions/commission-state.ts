import type { Prisma } from "@prisma/client";
import type { Statement } from "../../platform/db/sql.server";

// OrderRecord.commissionState, the app's copy of the commission's state at
// the referral service, changes only through here, and only decide
// (decide.server.ts, decided-statements.ts) calls it. The service's state
// machine (its interface document, "States and transitions"): a commission
// is created pending or approved; a pending one becomes approved or denied;
// approved and denied are final through the API. The service's own
// dashboard can still change a settled commission, and the app mirrors what
// the service reports: the one move it refuses is back to pending, which
// only a late or replayed event would bring.

export const COMMISSION_STATES = ["pending", "approved", "denied"] as const;
export type CommissionState = (typeof COMMISSION_STATES)[number];

type Db = Pick<Prisma.TransactionClient, "orderRecord">;

/**
 * Stores what the service reports of one record's commission, if the move
 * is allowed; checked in the update itself, so that two reports arriving
 * together cannot move a settled commission back to pending. True when it changed.
 *
 * `readAs`: the state the caller read before it called the service (a job
 * that denied the commission). A settled state stored since then came from
 * a service event while the caller worked, and is newer than the caller's
 * report: it stays.
 */
/** The states a commission reported as `reported` may not come from: its own (no change), and for pending every settled one. */
function refusedFrom(reported: CommissionState, readAs?: string | null): string[] {
  const refused: string[] = reported === "pending" ? ["pending", "approved", "denied"] : [reported];
  if (readAs !== undefined) {
    for (const settled of ["approved", "denied"]) if (settled !== readAs && !refused.includes(settled)) refused.push(settled);
  }
  return refused;
}

export async function moveCommissionState(
  db: Db,
  where: { shop: string; orderId: string } | { id: string },
  reported: CommissionState,
  options: { readAs?: string | null } = {},
): Promise<boolean> {
  const moved = await db.orderRecord.updateMany({
    where: { ...where, OR: [{ commissionState: null }, { commissionState: { notIn: refusedFrom(reported, options.readAs) } }] },
    data: { commissionState: reported },
  });
  return moved.count > 0;
}

/** moveCommissionState as a statement, for a job to store with its outcome. */
export function commissionStateMove(where: { shop: string; orderId: string }, reported: CommissionState, now: Date): Statement {
  const refused = refusedFrom(reported).map((state) => `'${state}'`).join(", ");
  return {
    sql: `UPDATE "OrderRecord" SET "commissionState" = :reported, "updatedAt" = :now WHERE "shop" = :shop AND "orderId" = :orderId AND ("commissionState" IS NULL OR "commissionState" NOT IN (${refused}))`,
    values: { ...where, reported, now },
  };
}
