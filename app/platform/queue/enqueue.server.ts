import { randomUUID } from "node:crypto";
import { Prisma, type PrismaClient } from "@prisma/client";
import type { Statement } from "../db/sql.server";
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

/**
 * The job as one plain statement, for an outcome to store with its settle
 * (JobOutcome.store), so queueing it costs its caller no statement of its
 * own; a job already stored under its key is left as it is.
 */
export function insertJobStatement<K extends JobKind>(kind: K, input: JobInput<PayloadOf<K>>, now: Date): Statement {
  const row = jobRow(kind, { ...input, runAt: input.runAt ?? now });
  return {
    sql: `INSERT INTO "Job" ("id", "shop", "kind", "key", "payload", "status", "attempts", "runAt", "webhookId", "triggeredAt", "lane", "laneAt", "arrivedBy", "createdAt", "updatedAt")
      VALUES (:id, :shop, :kind, :key, :payload, 'queued', 0, :runAt, :webhookId, :triggeredAt, :lane, :laneAt, :arrivedBy, :now, :now) ON CONFLICT DO NOTHING`,
    // Prisma makes the ids of the jobs it stores; a statement of its own needs one too.
    values: { id: `job${randomUUID().replace(/-/g, "")}`, ...row, now },
  };
}
