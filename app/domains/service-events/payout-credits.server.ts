import type { Prisma, PayoutCredit, PrismaClient } from "@prisma/client";

// A payout's store credit, and the only way its state moves: by
// compare-and-set on the state and attempt it was read in, so that two
// runners of its job (one taken over from the other), or a runner and the
// merchant, never both act on one reading.
//
// claimed            stored; nothing sent. -> sending, a hold, or failed.
// sending            a credit call began at attemptStartedAt; its answer may
//                    be lost. -> credited; -> sending again once the account
//                    shows it did not land; -> failed when Shopify surely
//                    refused; -> needs_review when the account cannot tell.
// failed             surely not credited (refused, no customer, no access).
//                    -> sending on the job's retry, claimed on the merchant's.
// wrong_currency,    held for the merchant (HELD_STATES): -> claimed (Check
// awaiting_approval, again, or Approve and credit), -> sending (Check again of
// unverified_email,  an unclear credit: the account is read first), -> closed.
// needs_review       unverified_email: the customer with the email has not
//                    verified it (the ambassador may be someone else).
// credited, closed   final.

export type PayoutState = "claimed" | "sending" | "credited" | "failed" | HeldState | "closed";

type HeldState = "awaiting_approval" | "wrong_currency" | "unverified_email" | "needs_review";

/** Waiting for the merchant: the Service events page lists them with what to do. */
export const HELD_STATES: readonly HeldState[] = ["awaiting_approval", "wrong_currency", "unverified_email", "needs_review"];

/** A credit whose call may have landed and whose answer the app has not had. */
export const UNSETTLED_STATES: readonly PayoutState[] = ["sending", "needs_review"];

type Db = PrismaClient | Prisma.TransactionClient;

/** What a move may change (never the payout it is for). */
export type CreditChange = Partial<Pick<PayoutCredit, "state" | "attempts" | "attemptStartedAt" | "customerId" | "currency" | "transactionId" | "approvedAt" | "lastError">>;

/** Moves the credit from the state and attempt it was read in; false when something else moved it first. */
export async function moveCredit(db: Db, read: Pick<PayoutCredit, "id" | "state" | "attempts">, change: CreditChange): Promise<boolean> {
  const moved = await db.payoutCredit.updateMany({ where: { id: read.id, state: read.state, attempts: read.attempts }, data: change });
  return moved.count === 1;
}

/** The credit as it is after `change` moved it (to read the next move from). */
export function afterMove(read: PayoutCredit, change: CreditChange): PayoutCredit {
  return { ...read, ...change };
}

export interface HeldPayout {
  id: string;
  payoutId: string;
  email: string;
  amount: string;
  currency: string | null;
  state: HeldState;
  /** Why it waits, and what the merchant can do. */
  reason: string | null;
  /** ISO time the payout arrived. */
  createdAt: string;
}

/** The shop's payouts waiting for the merchant, oldest first (at most 50). */
export async function listHeldPayouts(db: PrismaClient, shop: string): Promise<HeldPayout[]> {
  const rows = await db.payoutCredit.findMany({
    where: { shop, state: { in: [...HELD_STATES] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 50,
  });
  return rows.map((row) => ({
    id: row.id,
    payoutId: row.payoutId,
    email: row.email,
    amount: row.amount,
    currency: row.currency,
    state: row.state as HeldPayout["state"],
    reason: row.lastError,
    createdAt: row.createdAt.toISOString(),
  }));
}
