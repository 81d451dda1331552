import { Prisma, type PrismaClient } from "@prisma/client";
import type { JobKind, PayloadOf } from "./job-kind";
import { jobRow, type JobInput } from "./job-row";
import { notifyJobEnqueued } from "./wake";

type Db = PrismaClient | Prisma.TransactionClient;

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Stores a job; throws a unique violation (isUniqueViolation) when one with
 * the same key exists. The caller rings notifyJobEnqueued after its commit.
 */
export async function insertJob<K extends JobKind>(db: Db, kind: K, input: JobInput<PayloadOf<K>>): Promise<void> {
  await db.job.create({ data: jobRow(kind, input) });
}

/** Stores a job on its own; false when the same work is already queued. */
export async function enqueueJob<K extends JobKind>(db: PrismaClient, kind: K, input: JobInput<PayloadOf<K>>): Promise<boolean> {
  try {
    await insertJob(db, kind, input);
    notifyJobEnqueued();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
