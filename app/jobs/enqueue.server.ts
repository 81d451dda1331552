import { Prisma, type PrismaClient } from "@prisma/client";
import type { JobKind, JobPayload } from "./registry";
import { JOBS } from "./registry";
import { notifyJobEnqueued } from "./wake";

type Db = PrismaClient | Prisma.TransactionClient;

export interface EnqueueInput<K extends JobKind> {
  shop: string;
  kind: K;
  /** What makes deliveries of the same work collapse, e.g. the order id. */
  subject: string;
  payload: JobPayload<K>;
  webhookId?: string | null;
  triggeredAt?: Date | null;
  runAt?: Date;
}

export function jobKey(shop: string, kind: string, subject: string): string {
  return `${shop}:${kind}:${subject}`;
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Stores a job. Returns false when a job with the same key already exists
 * Stores a job; throws a unique violation (isUniqueViolation) when one with
 * the same key exists. Inside a transaction that rolls the whole transaction
 * back; the caller rings notifyJobEnqueued after the commit.
 */
export async function insertJob<K extends JobKind>(db: Db, input: EnqueueInput<K>): Promise<void> {
  const payload = JOBS[input.kind].payload.parse(input.payload);
  await db.job.create({
    data: {
      shop: input.shop,
      kind: input.kind,
      key: jobKey(input.shop, input.kind, input.subject),
      payload: JSON.stringify(payload),
      webhookId: input.webhookId ?? null,
      triggeredAt: input.triggeredAt ?? null,
      runAt: input.runAt ?? new Date(),
    },
  });
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
