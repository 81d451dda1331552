import type { Prisma, PrismaClient } from "@prisma/client";
import { plainSql } from "../db/sql.server";
import { jobKey } from "./job-row";

// The changes to jobs that code outside the runner makes, each in one place,
// so that every caller resets the same columns.

type Db = PrismaClient | Prisma.TransactionClient;

/** Jobs not running and not finished. */
const WAITING = ["queued", "paused"];
/** Every status a job can have (Job.status). */
export const ANY_STATUS = ["queued", "paused", "running", "failed", "done"];

/**
 * Every job of a shop, said so that the (status, shop, runAt) index finds
 * them: no index on jobs leads with the shop (decision 021).
 */
export function jobsOfShop(shop: string): Prisma.JobWhereInput {
  return { shop, status: { in: ANY_STATUS } };
}

/**
 * Puts a job back in the queue, due now, with its attempts counted from
 * zero and its lease cleared: a finished one (done or failed) by default, or
 * one in any of `from`. The caller rings notifyJobEnqueued after its commit.
 * False when there was no such job.
 */
export async function requeueJob(db: Db, key: string, now: Date, from: readonly string[] = ["failed", "done"]): Promise<boolean> {
  const requeued = await db.job.updateMany({
    where: { key, status: { in: [...from] } },
    data: { status: "queued", runAt: now, attempts: 0, lastError: null, lockedBy: null, leaseUntil: null },
  });
  return requeued.count > 0;
}

/**
 * Stops waiting jobs for good (done, with the reason as their last error):
 * queued or paused ones by default, or those in any of `from`. A job already
 * running finishes its attempt. How many were stopped.
 */
export async function stopJobs(db: Db, where: Prisma.JobWhereInput, reason: string, from: readonly string[] = WAITING): Promise<number> {
  const stopped = await db.job.updateMany({
    where: { ...where, status: { in: [...from] } },
    data: { status: "done", lastError: reason, lockedBy: null, leaseUntil: null },
  });
  return stopped.count;
}

/** A condition on a job's kind: only these, none of those; nothing when neither is given. */
function kindsWhere({ only, except }: { only?: readonly string[]; except?: readonly string[] }) {
  const kind = { ...(only ? { in: [...only] } : {}), ...(except && except.length > 0 ? { notIn: [...except] } : {}) };
  return Object.keys(kind).length > 0 ? { kind } : {};
}

/** Stops every waiting job of a shop, but those of the kinds in `except`. */
export function stopShopJobs(db: Db, shop: string, reason: string, except: readonly string[] = []): Promise<number> {
  return stopJobs(db, { shop, ...kindsWhere({ except }) }, reason);
}

/**
 * Holds the queued jobs of a shop that cannot go on, until resumeShopJobs:
 * all of them, or only those of the kinds in `only`; those in `except` go on.
 */
export async function pauseShopJobs(db: Db, shop: string, reason: string, which: { only?: readonly string[]; except?: readonly string[] } = {}): Promise<number> {
  const paused = await db.job.updateMany({
    where: { shop, status: "queued", ...kindsWhere(which) },
    data: { status: "paused", lastError: reason },
  });
  return paused.count;
}

/**
 * After new credentials or settings: the shop's held jobs run again, at once;
 * only those held for one of the reasons in `pausedFor`, or all but those held
 * for the reasons in `except`. The caller rings notifyJobEnqueued.
 */
export async function resumeShopJobs(
  db: Db,
  shop: string,
  now: Date = new Date(),
  which: { pausedFor?: readonly string[]; except?: readonly string[] } = {},
): Promise<number> {
  const why = which.pausedFor
    ? { lastError: { in: [...which.pausedFor] } }
    : which.except
      ? { OR: [{ lastError: null }, { lastError: { notIn: [...which.except] } }] }
      : {};
  const resumed = await db.job.updateMany({
    where: { shop, status: "paused", ...why },
    data: { status: "queued", runAt: now, lastError: null },
  });
  return resumed.count;
}

/**
 * Jobs of these kinds that stopJobs ended with `reason` wait again: each at
 * its own time if that is still to come, else now. A scheduled job keeps its
 * key, so the schedule it belongs to goes on instead of meeting its own
 * stopped slot. The caller rings notifyJobEnqueued. How many wait again.
 */
export async function reviveStoppedJobs(db: Db, shop: string, kinds: readonly string[], reason: string, now: Date): Promise<number> {
  const stopped = { shop, kind: { in: [...kinds] }, status: "done", lastError: reason };
  const due = await db.job.updateMany({ where: { ...stopped, runAt: { lt: now } }, data: { status: "queued", runAt: now, attempts: 0, lastError: null } });
  const later = await db.job.updateMany({ where: stopped, data: { status: "queued", attempts: 0, lastError: null } });
  return due.count + later.count;
}

/**
 * The shop's queued jobs of these kinds wait until `until` (a remote side
 * asked the shop to slow down). On PostgreSQL the rows are locked in id
 * order and those another statement holds (a claim, another worker's hold)
 * are passed over: two statements that lock many rows in different orders
 * deadlock, and a job being claimed meanwhile may as well run.
 */
export async function holdShopJobs(db: PrismaClient, shop: string, kinds: readonly string[], until: Date): Promise<void> {
  if (kinds.length === 0) return;
  const sql = plainSql(db);
  const kindNames = kinds.map((_, i) => `:kind${i}`).join(", ");
  const waiting = `SELECT "id" FROM "Job" WHERE "shop" = :shop AND "status" = 'queued' AND "kind" IN (${kindNames}) AND "runAt" < :until`;
  await sql.run({
    sql: `UPDATE "Job" SET "runAt" = :until, "updatedAt" = :now WHERE "id" IN (${sql.kind === "postgresql" ? `${waiting} ORDER BY "id" FOR UPDATE SKIP LOCKED` : waiting})`,
    values: { shop, until, now: new Date(), ...Object.fromEntries(kinds.map((kind, i) => [`kind${i}`, kind])) },
  });
}

/**
 * Deletes a shop's finished jobs (done) of one kind that ran before `before`:
 * those whose key no longer keeps a repeat out. It reads the range of their
 * keys (shop:kind:...) in the key's index, not every finished job of the shop.
 */
export async function deleteFinishedJobs(db: Db, shop: string, kind: string, before: Date): Promise<number> {
  const prefix = jobKey(shop, kind, "");
  const deleted = await db.job.deleteMany({ where: { key: { gte: prefix, lt: `${prefix}\uffff` }, kind, status: "done", runAt: { lt: before } } });
  return deleted.count;
}
