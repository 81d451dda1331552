import type { Job, PrismaClient } from "@prisma/client";
import { isUniqueViolation } from "./enqueue.server";

export interface ClaimOptions {
  workerId: string;
  leaseMs: number;
  now: Date;
  /** How many due jobs to look at per claim round. */
  batch?: number;
  /**
   * How many claims run side by side in this worker. Each starts at a random
   * one of the first `spread` due jobs, so that they do not all race for the
   * same job and leave the losers idle until the next poll.
   */
  spread?: number;
}

/** Jobs a claim tries before it gives up for this round. */
const TRIES = 5;

/** Statuses of a job that is not finished: a later job of the same lane waits for it. */
const UNFINISHED = ["queued", "running", "paused"];

/**
 * Takes the next due job: queued and due, or running with an expired lease
 * (its worker crashed or stalled). The conditional update makes two workers,
 * even in two processes on one PostgreSQL, never take the same job.
 *
 * Jobs of one lane (one order: its record, cancellation and refunds) run one
 * at a time, in the order Shopify triggered them: a job is taken only when
 * no earlier job of its lane is unfinished, and a unique index on the lane of
 * running jobs refuses a second one however the claims interleave.
 */
export async function claimNextJob(db: PrismaClient, options: ClaimOptions): Promise<Job | null> {
  const { now } = options;
  const due = { OR: [{ status: "queued", runAt: { lte: now } }, { status: "running", leaseUntil: { lt: now } }] };
  const candidates = await db.job.findMany({
    where: due,
    orderBy: { runAt: "asc" },
    take: Math.max(options.batch ?? 5, options.spread ?? 1),
    select: { id: true, lane: true, laneAt: true },
  });
  const start = Math.floor(Math.random() * Math.min(options.spread ?? 1, candidates.length));
  for (let i = 0; i < Math.min(TRIES, candidates.length); i++) {
    const candidate = candidates[(start + i) % candidates.length]!;
    if (candidate.lane && (await waitsInLane(db, candidate))) continue;
    try {
      const claimed = await db.job.updateMany({
        where: { id: candidate.id, ...due },
        data: {
          status: "running",
          lockedBy: options.workerId,
          leaseUntil: new Date(now.getTime() + options.leaseMs),
          attempts: { increment: 1 },
        },
      });
      if (claimed.count === 1) return db.job.findUnique({ where: { id: candidate.id } });
    } catch (error) {
      // Another job of the lane was taken meanwhile.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return null;
}

/** True when another job of the candidate's lane runs, or comes before it and is not finished. */
async function waitsInLane(db: PrismaClient, job: { id: string; lane: string | null; laneAt: Date | null }): Promise<boolean> {
  const at = job.laneAt ?? new Date(0);
  const ahead = await db.job.findFirst({
    where: {
      lane: job.lane,
      id: { not: job.id },
      OR: [
        { status: "running" },
        { status: { in: UNFINISHED }, laneAt: { lt: at } },
        { status: { in: UNFINISHED }, laneAt: at, id: { lt: job.id } },
      ],
    },
    select: { id: true },
  });
  return ahead !== null;
}

/** Extends a running job's lease; false when this worker no longer holds it. */
export async function renewLease(db: PrismaClient, options: { jobId: string; workerId: string; leaseMs: number; now: Date }): Promise<boolean> {
  const renewed = await db.job.updateMany({
    where: { id: options.jobId, lockedBy: options.workerId, status: "running" },
    data: { leaseUntil: new Date(options.now.getTime() + options.leaseMs) },
  });
  return renewed.count === 1;
}

/**
 * Gives back the jobs a stopping worker still holds: due again at once, the
 * attempt not counted (the job did not fail).
 */
export async function releaseLeases(db: PrismaClient, workerId: string): Promise<number> {
  const released = await db.job.updateMany({
    where: { lockedBy: workerId, status: "running" },
    data: { status: "queued", lockedBy: null, leaseUntil: null, runAt: new Date(), attempts: { decrement: 1 } },
  });
  return released.count;
}
