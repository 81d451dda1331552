import type { Job, PrismaClient } from "@prisma/client";

export interface ClaimOptions {
  workerId: string;
  leaseMs: number;
  now: Date;
  /** How many due jobs to look at per claim round. */
  batch?: number;
}

/**
 * Takes the next due job: queued and due, or running with an expired lease
 * (its worker crashed). The conditional update makes two workers, even in
 * two processes on one PostgreSQL, never take the same job.
 */
export async function claimNextJob(db: PrismaClient, options: ClaimOptions): Promise<Job | null> {
  const { now } = options;
  const due = { OR: [{ status: "queued", runAt: { lte: now } }, { status: "running", leaseUntil: { lt: now } }] };
  const candidates = await db.job.findMany({
    where: due,
    orderBy: { runAt: "asc" },
    take: options.batch ?? 5,
    select: { id: true },
  });
  for (const candidate of candidates) {
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
  }
  return null;
}
