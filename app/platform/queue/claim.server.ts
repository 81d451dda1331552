import type { Job, PrismaClient } from "@prisma/client";
import type { DatabaseKind } from "../db/adapter.server";
import { asModel, plainSql, type Statement } from "../db/sql.server";
import { DEFAULT_SHOP_CONCURRENCY } from "./defaults";
import { isUniqueViolation } from "./enqueue.server";

export interface ClaimOptions {
  /** Which database `db` is: the claim is written in its dialect. */
  database: DatabaseKind;
  workerId: string;
  leaseMs: number;
  now: Date;
  /** How many jobs to take at most. */
  limit?: number;
  /** How many jobs of one shop may run at once, across every worker (the service account's share). */
  perShop?: number;
}

/**
 * One round trip for a batch. A job is due when queued and due, or running
 * with an expired lease (its worker crashed or stalled). Jobs of one lane (one
 * order: its record, cancellation and refunds) run one at a time, in the
 * order Shopify triggered them: a job is taken only when no other job of its
 * lane runs and none before it is unfinished.
 *
 * Fair across shops: each shop's oldest due jobs are numbered (its turns)
 * and taken round by round (every shop's first, then every shop's
 * second...), so one shop's backlog never holds up another shop's new order;
 * a shop never has more than `perShop` jobs running, however many workers.
 * The shops with due jobs are found by skipping through the index on
 * (status, shop, runAt, id), and only the first few jobs of each are read,
 * in the index's order: the cost follows the number of shops, not the
 * length of a backlog.
 *
 * The outer condition repeats "due", so that two workers, even in two
 * processes on one PostgreSQL, never take the same job: the second one's
 * update finds the row no longer due. A unique index on the lane of running
 * jobs refuses a second job of a lane however claims interleave.
 */
function claimSql(kind: DatabaseKind): string {
  const firstOfShop = `SELECT q."id", q."shop", q."runAt", q."lane", q."laneAt" FROM "Job" q
      WHERE q."status" = 'queued' AND q."shop" = s."shop" AND q."runAt" <= :now ORDER BY q."runAt", q."id" LIMIT :scan`;
  // PostgreSQL reads each shop's first jobs with LATERAL; SQLite, which has no LATERAL, with a correlated IN.
  const heads =
    kind === "postgresql"
      ? `SELECT h.* FROM shops s CROSS JOIN LATERAL (${firstOfShop}) h WHERE s."shop" IS NOT NULL`
      : `SELECT k."id", k."shop", k."runAt", k."lane", k."laneAt" FROM shops s JOIN "Job" k ON k."id" IN (SELECT "id" FROM (${firstOfShop})) WHERE s."shop" IS NOT NULL`;
  // PostgreSQL: the picked rows are locked in id order, and those another statement holds (a claim, a
  // hold of the shop's jobs) are passed over, so two of them never wait on each other (a deadlock).
  const taken = kind === "postgresql" ? `,\ntaken AS (SELECT "id" FROM "Job" WHERE "id" IN (SELECT "id" FROM picked) ORDER BY "id" FOR UPDATE SKIP LOCKED)` : "";
  return `
WITH RECURSIVE shops("shop") AS (
  SELECT MIN("shop") FROM "Job" WHERE "status" = 'queued' AND "runAt" <= :now
  UNION ALL
  SELECT (SELECT MIN(j."shop") FROM "Job" j WHERE j."status" = 'queued' AND j."runAt" <= :now AND j."shop" > s."shop")
  FROM shops s WHERE s."shop" IS NOT NULL
),
due AS (
  SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c."shop" ORDER BY c."runAt", c."id") AS "turn"
  FROM (
    ${heads}
    UNION ALL
    SELECT r."id", r."shop", r."runAt", r."lane", r."laneAt" FROM "Job" r WHERE r."status" = 'running' AND r."leaseUntil" < :now
  ) c
),
busy AS (
  SELECT "shop", COUNT(*) AS "running" FROM "Job" WHERE "status" = 'running' AND "leaseUntil" >= :now GROUP BY "shop"
),
picked AS (
  SELECT d."id" FROM due d LEFT JOIN busy b ON b."shop" = d."shop"
  WHERE d."turn" + COALESCE(b."running", 0) <= :perShop
    AND (d."lane" IS NULL OR NOT EXISTS (
      SELECT 1 FROM "Job" a
      WHERE a."lane" = d."lane" AND a."id" <> d."id"
        AND (a."status" = 'running'
          OR (a."status" IN ('queued', 'running', 'paused') AND (a."laneAt" < d."laneAt" OR (a."laneAt" = d."laneAt" AND a."id" < d."id"))))
    ))
  ORDER BY d."turn", d."runAt", d."id"
  LIMIT :limit
)${taken}
UPDATE "Job"
SET "status" = 'running', "lockedBy" = :worker, "leaseUntil" = :leaseUntil, "attempts" = "attempts" + 1, "writingAt" = NULL, "updatedAt" = :now
WHERE "id" IN (SELECT "id" FROM ${kind === "postgresql" ? "taken" : "picked"})
  AND (("status" = 'queued' AND "runAt" <= :now) OR ("status" = 'running' AND "leaseUntil" < :now))
RETURNING *`;
}

/** Jobs waiting for an earlier one of their lane are passed over: reading this many of each shop leaves room for them. */
export const claimScan = (limit: number) => 4 * limit + 16;

/** The claim's statement (claimSql with its values). */
export function claimStatement(options: ClaimOptions): Statement {
  const limit = options.limit ?? 1;
  return {
    sql: claimSql(options.database),
    values: {
      now: options.now,
      leaseUntil: new Date(options.now.getTime() + options.leaseMs),
      worker: options.workerId,
      perShop: options.perShop ?? DEFAULT_SHOP_CONCURRENCY,
      limit,
      scan: claimScan(limit),
    },
  };
}

/** Takes up to `limit` due jobs at once (see claimSql), oldest turn first. */
export async function claimJobs(db: PrismaClient, options: ClaimOptions): Promise<Job[]> {
  try {
    const rows = await plainSql(db).rows(claimStatement(options));
    return rows.map((row) => asModel<Job>("Job", row)).sort((a, b) => a.runAt.getTime() - b.runAt.getTime());
  } catch (error) {
    // Another job of a lane was taken meanwhile: nothing is taken this round.
    if (isUniqueViolation(error) || /unique constraint/i.test(String(error))) return [];
    throw error;
  }
}

/** Takes the next due job (claimJobs with a limit of one). */
export async function claimNextJob(db: PrismaClient, options: Omit<ClaimOptions, "limit">): Promise<Job | null> {
  return (await claimJobs(db, { ...options, limit: 1 }))[0] ?? null;
}

/** Extends a running job's lease; false when this worker no longer holds it. */
export async function renewLease(db: PrismaClient, options: { jobId: string; workerId: string; leaseMs: number; now: Date }): Promise<boolean> {
  const renewed = await plainSql(db).run({
    sql: `UPDATE "Job" SET "leaseUntil" = :leaseUntil WHERE "id" = :id AND "lockedBy" = :worker AND "status" = 'running'`,
    values: { leaseUntil: new Date(options.now.getTime() + options.leaseMs), id: options.jobId, worker: options.workerId },
  });
  return renewed === 1;
}

/**
 * Gives back the jobs a stopping worker still holds: due again at once, the
 * attempt not counted (the job did not fail). A job whose handler is in the
 * middle of an external write (writingAt, see markWriting) is not given
 * back: its write may still land, so it keeps its lease until the lease runs
 * out, and only then may another worker take it.
 */
export async function releaseLeases(db: PrismaClient, workerId: string): Promise<{ released: number; writing: number }> {
  const released = await db.job.updateMany({
    where: { lockedBy: workerId, status: "running", writingAt: null },
    data: { status: "queued", lockedBy: null, leaseUntil: null, runAt: new Date(), attempts: { decrement: 1 } },
  });
  const writing = await db.job.count({ where: { lockedBy: workerId, status: "running", writingAt: { not: null } } });
  return { released: released.count, writing };
}

/** Thrown instead of starting an external write when the worker no longer holds the job. */
export class LeaseLostError extends Error {
  constructor(jobId: string) {
    super(`The worker no longer holds job ${jobId}; it starts no external write`);
    this.name = "LeaseLostError";
  }
}

/** Marks a running job as making an external write (releaseLeases keeps it); false when this worker no longer holds it. */
export async function markWriting(db: PrismaClient, options: { jobId: string; workerId: string; now: Date }): Promise<boolean> {
  const marked = await db.job.updateMany({
    where: { id: options.jobId, lockedBy: options.workerId, status: "running" },
    data: { writingAt: options.now },
  });
  return marked.count === 1;
}

/** The job's external write has ended (whatever came of it). */
export async function clearWriting(db: PrismaClient, options: { jobId: string; workerId: string }): Promise<void> {
  await db.job.updateMany({ where: { id: options.jobId, lockedBy: options.workerId, status: "running" }, data: { writingAt: null } });
}
