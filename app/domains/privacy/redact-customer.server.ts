import { createHmac } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import { insertJob } from "../../platform/queue/enqueue.server";
import { jobKey } from "../../platform/queue/job-row";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import type { Logger } from "../../platform/logger/logger.server";
import { derivedKey, openToken, sealToken, UnreadableSealedValue, type SealContext, type CredentialsKey } from "../../platform/crypto/sealing.server";
import { enqueueJob } from "../../platform/queue/enqueue.server";
import { customerIdEmail, keysOfOrderJobs } from "../referrals";
import { enrolmentJobKey } from "../flow-triggers";
import { readCustomerRedact, type CustomerIdentity } from "./compliance-payloads";
import { customerOrderRecordsWhere, serviceEventIdsByEmail } from "./customer-rows.server";
import { type FoundRow, type PersonalTable, rowsMentioning } from "./person-sweep.server";
import { mentions, personPattern, scrub } from "./person-text";
import { PRIVACY_CUSTOMER_REDACT_JOB, PRIVACY_EXPORT_JOB, PRIVACY_REDACT_JOB } from "./job-kinds";
import type { ComplianceWebhook } from "./data-requests.server";

/**
 * Names the person in the log without keeping who it is: a keyed hash, so
 * nobody can test guessed emails against it without the app's key.
 */
export function subjectHash(shop: string, who: CustomerIdentity, key: CredentialsKey): string {
  const subject = who.email ?? (who.customerId ? `customer:${who.customerId}` : `orders:${who.orderIds.join(",")}`);
  return createHmac("sha256", derivedKey(key, "hash")).update(`${shop}\n${subject}`).digest("hex");
}

/** The jobs that carry this customer's data: their orders' jobs, their events' jobs, their data requests' jobs. */
function customerJobsWhere(shop: string, orderIds: string[], events: { ids: string[]; jobKind: string }, requestIds: string[]): Prisma.JobWhereInput {
  const keys = [...events.ids.map((id) => jobKey(shop, events.jobKind, id)), ...requestIds.map((id) => jobKey(shop, PRIVACY_EXPORT_JOB.name, id))];
  // No empty list among the conditions (it would be "1=0" and keep SQLite from reading each one through the key's index); none at all matches nothing.
  return { shop, OR: [...(keys.length > 0 ? [{ key: { in: keys } }] : []), ...keysOfOrderJobs(shop, orderIds)] };
}

/** A stored service event with the person taken out: the row and its event_id stay, so a replayed event is still refused. */
const SCRUBBED_EVENT = { payload: '{"redacted":true}', emails: ",", detail: null, reference: null } as const;

/**
 * Deletes one customer's rows in the app and takes them out of every other
 * row that mentions them (another order's referrer, a credit's error, an
 * event's body); returns how many of each went.
 */
async function eraseLocally(tx: Prisma.TransactionClient, shop: string, who: CustomerIdentity, eventJobKind: string, appSecret: string) {
  const needles = { email: who.email, customerId: who.customerId };
  const pattern = personPattern(needles);
  const found = async (table: PersonalTable, also: string[] = []) => (pattern ? rowsMentioning(tx, table, shop, needles, also) : []);

  // Their own orders: by email key, customer id, the order ids named, or their email in the row.
  const ownOrders = await tx.orderRecord.findMany({ where: await customerOrderRecordsWhere(tx, shop, who), select: { id: true, orderId: true } });
  const otherOrders: FoundRow[] = [];
  for (const row of await found("OrderRecord", ["orderId"])) {
    if (ownOrders.some((r) => r.id === row.id)) continue;
    if (pattern && (mentions(row.email, pattern) || mentions(row.customerId, pattern))) ownOrders.push({ id: row.id, orderId: row.orderId ?? "" });
    else otherOrders.push(row);
  }
  const events = [...new Set([...(await serviceEventIdsByEmail(tx, shop, who.email)), ...(await found("ServiceEvent")).map((r) => r.id)])];
  const requestMatch: Prisma.DataRequestWhereInput[] = [];
  if (who.email) requestMatch.push({ email: who.email });
  if (who.customerId) requestMatch.push({ customerId: who.customerId });
  const requests = new Set(requestMatch.length ? (await tx.dataRequest.findMany({ where: { shop, OR: requestMatch }, select: { id: true } })).map((r) => r.id) : []);
  const otherRequests: FoundRow[] = [];
  for (const row of await found("DataRequest")) {
    if (pattern && (mentions(row.email, pattern) || mentions(row.customerId, pattern))) requests.add(row.id);
    else if (!requests.has(row.id)) otherRequests.push(row);
  }
  const orderIds = [...new Set([...who.orderIds, ...ownOrders.map((r) => r.orderId)])];

  const jobsOfTheirs = await tx.job.deleteMany({ where: customerJobsWhere(shop, orderIds, { ids: events, jobKind: eventJobKind }, [...requests]) });
  // Their enrolment's Flow trigger, kept past the purge as the key of the enrolment: it goes with them.
  const enrolment = who.email ? await tx.job.deleteMany({ where: { key: enrolmentJobKey(shop, who.email, appSecret) } }) : { count: 0 };
  const jobsNamingThem = await found("Job");
  const jobsCarrying = jobsNamingThem.filter((job) => pattern && mentions(job.payload, pattern)).map((job) => job.id);
  await tx.job.deleteMany({ where: { id: { in: jobsCarrying } } });
  for (const job of jobsNamingThem.filter((j) => !jobsCarrying.includes(j.id))) {
    await tx.job.update({ where: { id: job.id }, data: { lastError: job.lastError && pattern ? scrub(job.lastError, pattern) : job.lastError } });
  }

  const orderRecords = await tx.orderRecord.deleteMany({ where: { id: { in: ownOrders.map((r) => r.id) } } });
  // What the app last wrote to their Shopify customer (Shopify erases the customer itself).
  const shareLinkMatch: Prisma.CustomerShareLinkWhereInput[] = [];
  if (who.email) shareLinkMatch.push({ email: who.email.toLowerCase() });
  if (who.customerId) shareLinkMatch.push({ customerId: `gid://shopify/Customer/${who.customerId}` });
  if (shareLinkMatch.length) await tx.customerShareLink.deleteMany({ where: { shop, OR: shareLinkMatch } });
  await tx.pixelSignal.deleteMany({ where: { shop, orderId: { in: orderIds } } });
  // Their record as a referred customer: both its keys (customer id, email) were written with the order that referred them.
  const referredMatch: Prisma.ReferredCustomerWhereInput[] = [{ orderId: { in: orderIds } }];
  if (who.customerId) referredMatch.push({ customerKey: `c:${who.customerId}` });
  await tx.referredCustomer.deleteMany({ where: { shop, OR: referredMatch } });
  // A buyer of a leaked code's row (hashed, naming nobody, but tied to their order); a flagged code naming them as its ambassador.
  await tx.couponBuyer.deleteMany({ where: { shop, orderId: { in: orderIds } } });
  if (who.email) await tx.leakedCode.updateMany({ where: { shop, referrerEmail: who.email.trim().toLowerCase() }, data: { referrerEmail: null } });
  for (const row of otherOrders) {
    const data: Record<string, string | null> = {};
    for (const column of ["results", "explanation", "statusReason", "lastError"] as const) data[column] = row[column] && pattern ? scrub(row[column]!, pattern) : row[column];
    await tx.orderRecord.update({ where: { id: row.id }, data });
  }
  const serviceEvents = await tx.serviceEvent.updateMany({ where: { id: { in: events } }, data: SCRUBBED_EVENT });
  // Flow action runs about them: the customer Flow named, their orders, their email in an outcome.
  const flowMatch: Prisma.FlowActionRunWhereInput[] = [];
  if (who.customerId) flowMatch.push({ customerId: who.customerId });
  if (orderIds.length > 0) flowMatch.push({ orderId: { in: orderIds } });
  if (who.email) flowMatch.push({ detail: { contains: who.email } });
  // Emptied, not deleted: the row is the action_run_id's key, so Flow delivering that run again is still a repeat and never runs it.
  const flowActionRuns = { count: flowMatch.length > 0 ? await eraseFlowActionRuns(tx, shop, flowMatch) : 0 };
  const dataRequests = await tx.dataRequest.deleteMany({ where: { id: { in: [...requests] } } });
  for (const row of otherRequests) {
    await tx.dataRequest.update({
      where: { id: row.id },
      data: { report: row.report && pattern ? scrub(row.report, pattern) : row.report, statusDetail: row.statusDetail && pattern ? scrub(row.statusDetail, pattern) : row.statusDetail },
    });
  }
  // The credit rows stay, without the person, so a replayed payout is still never paid twice.
  const credits = await found("PayoutCredit");
  for (const row of credits) {
    await tx.payoutCredit.update({ where: { id: row.id }, data: { email: "", customerId: null, lastError: row.lastError && pattern ? scrub(row.lastError, pattern) : null } });
  }
  for (const row of await found("RedactionLog")) {
    await tx.redactionLog.update({ where: { id: row.id }, data: { serviceDetail: row.serviceDetail && pattern ? scrub(row.serviceDetail, pattern) : null } });
  }
  return {
    orderRecords: orderRecords.count,
    serviceEvents: serviceEvents.count,
    dataRequests: dataRequests.count,
    jobs: jobsOfTheirs.count + jobsCarrying.length + enrolment.count,
    storeCredits: credits.length,
    flowActionRuns: flowActionRuns.count,
    mentionsRemoved: otherOrders.length + otherRequests.length + jobsNamingThem.length - jobsCarrying.length,
  };
}

async function eraseFlowActionRuns(tx: Prisma.TransactionClient, shop: string, match: Prisma.FlowActionRunWhereInput[]) {
  const runs = await tx.flowActionRun.findMany({ where: { shop, OR: match }, select: { id: true, state: true } });
  const erased = { request: "Erased (customers/redact)", payload: "{}", customerId: null, orderId: null, detail: null };
  const waiting = runs.filter((run) => run.state === "queued").map((run) => run.id);
  await tx.flowActionRun.updateMany({ where: { id: { in: waiting } }, data: { ...erased, state: "failed", detail: "Not run: the customer's data was erased first (customers/redact)." } });
  await tx.flowActionRun.updateMany({ where: { id: { in: runs.map((run) => run.id).filter((id) => !waiting.includes(id)) } }, data: erased });
  return runs.length;
}

type ServicePlan = { state: "pending"; sealedEmail: string } | { state: "not_requested" | "not_connected" | "no_email" };

async function planServiceErasure(db: Prisma.TransactionClient, shop: string, email: string | null, key: CredentialsKey): Promise<ServicePlan> {
  const row = await db.shop.findUnique({ where: { shop }, select: { redactAtService: true, serviceTokenSealed: true } });
  if (row && !row.redactAtService) return { state: "not_requested" };
  if (!row?.serviceTokenSealed) return { state: "not_connected" };
  if (!email) return { state: "no_email" };
  return { state: "pending", sealedEmail: sealToken(email, key, { shop, column: "RedactionLog.pendingEmailSealed" }) };
}

/** Where the identity of a customer waiting for their redaction is sealed: the job's payload. */
const WAITING_IDENTITY = (shop: string): SealContext => ({ shop, column: "Job.payload:privacy.customer-redact" });

/**
 * customers/redact as the webhook request does it: the customer to redact
 * is stored, sealed, as a job, and the request answers. The job is keyed by
 * the delivery's webhook id, so Shopify delivering the same request twice
 * makes one job. Returns the customer's id (the storefront forgets their
 * cached links at once) and whether this delivery queued the job.
 */
export async function acceptCustomerRedact(
  db: PrismaClient,
  logger: Logger,
  hook: ComplianceWebhook,
  options: { credentialsKey: CredentialsKey },
): Promise<{ queued: boolean; customerId: string | null }> {
  const who = readCustomerRedact(hook.payload);
  const subject = hook.webhookId ?? subjectHash(hook.shop, who, options.credentialsKey);
  const queued = await enqueueJob(db, PRIVACY_CUSTOMER_REDACT_JOB, {
    shop: hook.shop,
    subject,
    payload: { who: sealToken(JSON.stringify(who), options.credentialsKey, WAITING_IDENTITY(hook.shop)) },
    webhookId: hook.webhookId,
  });
  logger.info({ shop: hook.shop, topic: "customers/redact", webhookId: hook.webhookId, queued }, queued ? "customer redaction queued" : "customer redaction repeated; already queued");
  return { queued, customerId: who.customerId };
}

/** Why a privacy job whose sealed value no key opens stops, in the merchant's words. */
export const KEY_LOST =
  "The app can't read this request's stored details: its encryption key (CREDENTIALS_KEY) was changed without the previous key kept for reading. " +
  "Whoever runs the app can put the previous key back in CREDENTIALS_KEY_PREVIOUS (see the app's operations guide); the request can then run again.";

/** The job half of customers/redact: the customer sealed in its payload is redacted (redactCustomer). */
export async function runCustomerRedact(
  ctx: { db: PrismaClient; logger: Logger; credentialsKey: CredentialsKey; serviceEventJobKind: string; appSecret: string },
  shop: string,
  payload: { who: string },
  webhookId: string | null,
) {
  let sealedWho: string;
  try {
    sealedWho = openToken(payload.who, ctx.credentialsKey, WAITING_IDENTITY(shop));
  } catch (error) {
    if (!(error instanceof UnreadableSealedValue)) throw error;
    // Who it was is unknown here: the Data requests page shows a redaction that could not run, and why.
    await ctx.db.redactionLog.create({ data: { shop, subjectHash: "unreadable", deleted: "{}", serviceState: "failed", serviceDetail: KEY_LOST } });
    return { unreadable: true as const };
  }
  const who = JSON.parse(sealedWho) as CustomerIdentity;
  return redactCustomer(ctx.db, ctx.logger, { shop, who, webhookId }, { credentialsKey: ctx.credentialsKey, serviceEventJobKind: ctx.serviceEventJobKind, appSecret: ctx.appSecret });
}

/**
 * A customer's redaction: their rows go (order records, events, data
 * requests, their jobs) and they are taken out of every other row; the
 * erasure at the service, when the shop has it on (the default), is a
 * retried job. A RedactionLog records that it was done, by hash, with
 * counts. Run by the customers/redact job, never in the webhook's request.
 */
export async function redactCustomer(
  db: PrismaClient,
  logger: Logger,
  request: { shop: string; who: CustomerIdentity; webhookId: string | null },
  /** serviceEventJobKind: the kind of the jobs that carry a service event (the service-events domain's), handed in by the wiring. */
  options: { credentialsKey: CredentialsKey; serviceEventJobKind: string; appSecret: string },
): Promise<{ redactionId: string; deleted: Record<string, number>; serviceState: string; customerId: string | null }> {
  const { shop, who } = request;
  const result = await db.$transaction(async (tx) => {
    const deleted = await eraseLocally(tx, shop, who, options.serviceEventJobKind, options.appSecret);
    // A customer without an email was recorded under the address made from their id (decision 033).
    const serviceEmail = who.email ?? (who.customerId ? customerIdEmail(who.customerId) : null);
    const plan = await planServiceErasure(tx, shop, serviceEmail, options.credentialsKey);
    const log = await tx.redactionLog.create({
      data: {
        shop,
        subjectHash: subjectHash(shop, who, options.credentialsKey),
        deleted: JSON.stringify(deleted),
        serviceState: plan.state,
        pendingEmailSealed: plan.state === "pending" ? plan.sealedEmail : null,
        completedAt: plan.state === "pending" ? null : new Date(),
      },
    });
    if (plan.state === "pending") {
      await insertJob(tx, PRIVACY_REDACT_JOB, { shop, subject: log.id, payload: { redactionId: log.id } });
    }
    return { redactionId: log.id, deleted, serviceState: plan.state, customerId: who.customerId };
  });
  if (result.serviceState === "pending") notifyJobEnqueued();
  logger.info({ shop, topic: "customers/redact", webhookId: request.webhookId, deleted: result.deleted, serviceState: result.serviceState }, "customer redacted");
  return result;
}
