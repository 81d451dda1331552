import { createHmac } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import { insertJob } from "../jobs/enqueue.server";
import { jobKey } from "../jobs/job-row";
import { notifyJobEnqueued } from "../jobs/wake";
import type { Logger } from "../logger.server";
import { sealToken } from "../referrals/credentials.server";
import { SERVICE_EVENT_JOB } from "../service-events/job-kind";
import { readCustomerRedact, type CustomerIdentity } from "./compliance-payloads";
import { customerOrderRecordsWhere, serviceEventIdsByEmail } from "./customer-rows.server";
import { PRIVACY_EXPORT_JOB, PRIVACY_REDACT_JOB } from "./job-kinds";
import type { ComplianceWebhook } from "./data-requests.server";

/**
 * Names the person in the log without keeping who it is: a keyed hash, so
 * nobody can test guessed emails against it without the app's key.
 */
export function subjectHash(shop: string, who: CustomerIdentity, key: string): string {
  const subject = who.email ?? (who.customerId ? `customer:${who.customerId}` : `orders:${who.orderIds.join(",")}`);
  return createHmac("sha256", Buffer.from(key, "base64")).update(`${shop}\n${subject}`).digest("hex");
}

/** The jobs that carry this customer's data: their orders' jobs, their events' jobs, their data requests' jobs. */
function customerJobsWhere(shop: string, orderIds: string[], eventIds: string[], requestIds: string[]): Prisma.JobWhereInput {
  const keys = [
    ...orderIds.flatMap((id) => [jobKey(shop, "order.record", id), jobKey(shop, "order.cancel", id)]),
    ...eventIds.map((id) => jobKey(shop, SERVICE_EVENT_JOB, id)),
    ...requestIds.map((id) => jobKey(shop, PRIVACY_EXPORT_JOB, id)),
  ];
  return {
    shop,
    OR: [{ key: { in: keys } }, ...orderIds.map((id) => ({ key: { startsWith: jobKey(shop, "order.refund", `${id}:`) } }))],
  };
}

/** Deletes one customer's rows in the app and returns how many of each went. */
async function eraseLocally(tx: Prisma.TransactionClient, shop: string, who: CustomerIdentity) {
  const records = await tx.orderRecord.findMany({
    where: await customerOrderRecordsWhere(tx, shop, who),
    select: { id: true, orderId: true },
  });
  const eventIds = await serviceEventIdsByEmail(tx, shop, who.email);
  const requestMatch: Prisma.DataRequestWhereInput[] = [];
  if (who.email) requestMatch.push({ email: who.email });
  if (who.customerId) requestMatch.push({ customerId: who.customerId });
  const requests = requestMatch.length
    ? await tx.dataRequest.findMany({ where: { shop, OR: requestMatch }, select: { id: true } })
    : [];
  const orderIds = [...new Set([...who.orderIds, ...records.map((r) => r.orderId)])];

  const jobs = await tx.job.deleteMany({
    where: customerJobsWhere(shop, orderIds, eventIds, requests.map((r) => r.id)),
  });
  const orderRecords = await tx.orderRecord.deleteMany({ where: { id: { in: records.map((r) => r.id) } } });
  const serviceEvents = await tx.serviceEvent.deleteMany({ where: { id: { in: eventIds } } });
  const dataRequests = await tx.dataRequest.deleteMany({ where: { id: { in: requests.map((r) => r.id) } } });
  // The credit rows stay, without the person, so a replayed payout is still never paid twice.
  const storeCredits = who.email
    ? await tx.payoutCredit.updateMany({ where: { shop, email: who.email }, data: { email: "", customerId: null } })
    : { count: 0 };
  return {
    orderRecords: orderRecords.count,
    serviceEvents: serviceEvents.count,
    dataRequests: dataRequests.count,
    jobs: jobs.count,
    storeCredits: storeCredits.count,
  };
}

type ServicePlan = { state: "pending"; sealedEmail: string } | { state: "not_requested" | "not_connected" | "no_email" };

async function planServiceErasure(db: Prisma.TransactionClient, shop: string, email: string | null, key: string): Promise<ServicePlan> {
  const row = await db.shop.findUnique({ where: { shop }, select: { redactAtService: true, serviceTokenSealed: true } });
  if (row && !row.redactAtService) return { state: "not_requested" };
  if (!row?.serviceTokenSealed) return { state: "not_connected" };
  if (!email) return { state: "no_email" };
  return { state: "pending", sealedEmail: sealToken(email, key) };
}

/**
 * customers/redact: the customer's rows go at once (order records, events,
 * data requests, their jobs); the erasure at the service, when the shop has
 * it on (the default), is a retried job. A RedactionLog records that it was
 * done, by hash, with counts.
 */
export async function redactCustomer(
  db: PrismaClient,
  logger: Logger,
  hook: ComplianceWebhook,
  options: { credentialsKey: string },
): Promise<{ redactionId: string; deleted: Record<string, number>; serviceState: string; customerId: string | null }> {
  const who = readCustomerRedact(hook.payload);
  const result = await db.$transaction(async (tx) => {
    const deleted = await eraseLocally(tx, hook.shop, who);
    const plan = await planServiceErasure(tx, hook.shop, who.email, options.credentialsKey);
    const log = await tx.redactionLog.create({
      data: {
        shop: hook.shop,
        subjectHash: subjectHash(hook.shop, who, options.credentialsKey),
        deleted: JSON.stringify(deleted),
        serviceState: plan.state,
        pendingEmailSealed: plan.state === "pending" ? plan.sealedEmail : null,
        completedAt: plan.state === "pending" ? null : new Date(),
      },
    });
    if (plan.state === "pending") {
      await insertJob(tx, { shop: hook.shop, kind: PRIVACY_REDACT_JOB, subject: log.id, payload: { redactionId: log.id } });
    }
    return { redactionId: log.id, deleted, serviceState: plan.state, customerId: who.customerId };
  });
  if (result.serviceState === "pending") notifyJobEnqueued();
  logger.info(
    { shop: hook.shop, topic: "customers/redact", webhookId: hook.webhookId, deleted: result.deleted, serviceState: result.serviceState },
    "customer redacted",
  );
  return result;
}
