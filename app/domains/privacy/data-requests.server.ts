import type { DataRequest, PrismaClient } from "@prisma/client";
import { insertJob, isUniqueViolation } from "../../platform/queue/enqueue.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import type { Logger } from "../../platform/logger/logger.server";
import { readDataRequest } from "./compliance-payloads";
import { PRIVACY_EXPORT_JOB } from "./job-kinds";

export interface ComplianceWebhook {
  shop: string;
  payload: unknown;
  webhookId: string | null;
}

/**
 * customers/data_request: stores the request and the job that builds its
 * report, in one transaction. A repeated delivery (same data_request id)
 * finds the stored request and adds nothing.
 */
export async function acceptDataRequest(db: PrismaClient, logger: Logger, hook: ComplianceWebhook): Promise<"queued" | "duplicate"> {
  const request = readDataRequest(hook.payload);
  const log = logger.child({ shop: hook.shop, topic: "customers/data_request", webhookId: hook.webhookId });
  try {
    await db.$transaction(async (tx) => {
      const row = await tx.dataRequest.create({
        data: {
          shop: hook.shop,
          requestId: request.requestId,
          customerId: request.customerId,
          email: request.email,
          ordersRequested: JSON.stringify(request.orderIds),
        },
      });
      await insertJob(tx, PRIVACY_EXPORT_JOB, { shop: hook.shop, subject: row.id, payload: { dataRequestId: row.id } });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    log.info("data request repeated; already stored");
    return "duplicate";
  }
  notifyJobEnqueued();
  log.info({ requestId: request.requestId }, "data request stored");
  return "queued";
}

export interface DataRequestRow {
  id: string;
  requestId: string | null;
  email: string | null;
  customerId: string | null;
  status: string;
  statusDetail: string | null;
  receivedAt: string;
  completedAt: string | null;
  /** Time from the webhook to the finished report. */
  tookMs: number | null;
}

function toRow(request: DataRequest): DataRequestRow {
  return {
    id: request.id,
    requestId: request.requestId,
    email: request.email,
    customerId: request.customerId,
    status: request.status,
    statusDetail: request.statusDetail,
    receivedAt: request.receivedAt.toISOString(),
    completedAt: request.completedAt?.toISOString() ?? null,
    tookMs: request.completedAt ? request.completedAt.getTime() - request.receivedAt.getTime() : null,
  };
}

export async function listDataRequests(db: PrismaClient, shop: string, options: { take?: number } = {}): Promise<DataRequestRow[]> {
  const rows = await db.dataRequest.findMany({ where: { shop }, orderBy: { receivedAt: "desc" }, take: options.take ?? 100 });
  return rows.map(toRow);
}

/** One of the shop's requests with its report text; null for another shop's id. */
export async function getDataRequest(
  db: PrismaClient,
  shop: string,
  id: string,
): Promise<(DataRequestRow & { report: string | null }) | null> {
  const row = await db.dataRequest.findFirst({ where: { id, shop } });
  return row ? { ...toRow(row), report: row.report } : null;
}

/** The finished report as a file the merchant can hand to the customer. */
export async function dataRequestDownload(
  db: PrismaClient,
  shop: string,
  id: string,
): Promise<{ filename: string; body: string } | null> {
  const row = await db.dataRequest.findFirst({ where: { id, shop, status: "ready" } });
  if (!row?.report) return null;
  const day = (row.completedAt ?? row.receivedAt).toISOString().slice(0, 10);
  return { filename: `data-request-${row.requestId ?? row.id}-${day}.json`, body: JSON.stringify(JSON.parse(row.report), null, 2) };
}
