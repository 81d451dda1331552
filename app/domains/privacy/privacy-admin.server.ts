import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { jobKey } from "../../platform/queue/job-row";
import { requeueJob } from "../../platform/queue/shop-jobs.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import { PRIVACY_EXPORT_JOB, PRIVACY_REDACT_JOB } from "./job-kinds";

/** The Data requests page's query: which request's report is open, if any. */
export const dataRequestViewQuery = z.object({ id: z.string().min(1).max(64).optional().catch(undefined) });

/** The Data requests page's forms: the setting, and starting a failed request or redaction again. */
export const dataRequestActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("settings"), redactAtService: z.enum(["true", "false"]).transform((v) => v === "true") }),
  z.object({ intent: z.literal("retry-request"), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("retry-redaction"), id: z.string().min(1).max(64) }),
]);

export interface RedactionRow {
  id: string;
  requestedAt: string;
  completedAt: string | null;
  deleted: Record<string, number>;
  serviceState: string;
  serviceDetail: string | null;
}

export async function listRedactions(db: PrismaClient, shop: string, take = 20): Promise<RedactionRow[]> {
  const rows = await db.redactionLog.findMany({ where: { shop }, orderBy: { requestedAt: "desc" }, take });
  return rows.map((row) => ({
    id: row.id,
    requestedAt: row.requestedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    deleted: JSON.parse(row.deleted) as Record<string, number>,
    serviceState: row.serviceState,
    serviceDetail: row.serviceDetail,
  }));
}

export async function readRedactAtService(db: PrismaClient, shop: string): Promise<boolean> {
  const row = await db.shop.findUnique({ where: { shop }, select: { redactAtService: true } });
  return row?.redactAtService ?? true;
}

export async function saveRedactAtService(db: PrismaClient, shop: string, redactAtService: boolean): Promise<void> {
  await db.shop.upsert({ where: { shop }, create: { shop, redactAtService }, update: { redactAtService } });
}

async function requeue(db: PrismaClient, key: string, now: Date): Promise<void> {
  await requeueJob(db, key, now);
  notifyJobEnqueued();
}

/** A failed report is built again from the start. */
export async function retryDataRequest(db: PrismaClient, shop: string, id: string, now = new Date()): Promise<boolean> {
  const reopened = await db.dataRequest.updateMany({
    where: { id, shop, status: "failed" },
    data: { status: "open", statusDetail: "Retry requested" },
  });
  if (reopened.count === 0) return false;
  await requeue(db, jobKey(shop, PRIVACY_EXPORT_JOB.name, id), now);
  return true;
}

/** A failed erasure at the service is tried again (the sealed email is kept until it succeeds). */
export async function retryRedaction(db: PrismaClient, shop: string, id: string, now = new Date()): Promise<boolean> {
  const reopened = await db.redactionLog.updateMany({
    where: { id, shop, serviceState: "failed", pendingEmailSealed: { not: null } },
    data: { serviceState: "pending", serviceDetail: "Retry requested" },
  });
  if (reopened.count === 0) return false;
  await requeue(db, jobKey(shop, PRIVACY_REDACT_JOB.name, id), now);
  return true;
}
