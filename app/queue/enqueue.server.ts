import { Prisma, type PrismaClient } from "@prisma/client";
import { jobRowChecked, type JobRowInput } from "./job-row";
import { JOB_PAYLOADS, type JobKind, type JobPayload } from "./kinds";
import { notifyJobEnqueued } from "./wake";

type Db = PrismaClient | Prisma.TransactionClient;

export type EnqueueInput<K extends JobKind> = JobRowInput<JobPayload<K>> & { kind: K };

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Stores a job; throws a unique violation (isUniqueViolation) when one with
 * the same key exists. The caller rings notifyJobEnqueued after its commit.
 */
export async function insertJob<K extends JobKind>(db: Db, input: EnqueueInput<K>): Promise<void> {
  await db.job.create({ data: jobRowChecked(JOB_PAYLOADS[input.kind], input) });
}

/** Stores a job on its own; false when the same work is already queued. */
export async function enqueueJob<K extends JobKind>(db: PrismaClient, input: EnqueueInput<K>): Promise<boolean> {
  try {
    await insertJob(db, input);
    notifyJobEnqueued();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
