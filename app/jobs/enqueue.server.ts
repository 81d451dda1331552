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

export interface NewJob {
  shop: string;
  kind: JobKind;
  key: string;
  payload: string;
  webhookId: string | null;
  triggeredAt: Date | null;
  runAt: Date;
}

/** The row of a new job, its payload checked against the job's schema. */
export function jobRow<K extends JobKind>(input: EnqueueInput<K>): NewJob {
  const payload = JOBS[input.kind].payload.parse(input.payload);
  return {
    shop: input.shop,
    kind: input.kind,
    key: jobKey(input.shop, input.kind, input.subject),
    payload: JSON.stringify(payload),
    webhookId: input.webhookId ?? null,
    triggeredAt: input.triggeredAt ?? null,
    runAt: input.runAt ?? new Date(),
  };
}

/**
 * Stores a job; throws a unique violation (isUniqueViolation) when one with
 * the same key exists. The caller rings notifyJobEnqueued after its commit.
 */
export async function insertJob<K extends JobKind>(db: Db, input: EnqueueInput<K>): Promise<void> {
  await db.job.create({ data: jobRow(input) });
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
