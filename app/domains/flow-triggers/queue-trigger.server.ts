import { createHmac } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import type { Statement } from "../../platform/db/sql.server";
import { insertJobStatement } from "../../platform/queue/enqueue.server";
import { jobKey, jobRow } from "../../platform/queue/job-row";
import { FLOW_TRIGGER_JOB } from "./job-kinds";
import { FLOW_TRIGGER_HANDLES, type FlowTrigger, type FlowTriggerHandle } from "./triggers";

// Queues a Flow trigger's job in the caller's transaction, keyed by the
// trigger and the event: the same event learnt twice (a webhook delivered
// again, a job retried) queues it once, so Flow hears of it once.
//
// Only for shops with "Send events to Shopify Flow" on (Shop.flowTriggers):
// a caller that has the shop's row passes its flag; flowTriggersOn reads it
// otherwise.

type Db = PrismaClient | Prisma.TransactionClient;

/** What makes two learnings of one event one trigger: its handle and the event's own id (an order id, a service event id). */
function subject(handle: FlowTriggerHandle, eventKey: string): string {
  return `${handle}:${eventKey}`;
}

export async function flowTriggersOn(db: Db, shop: string): Promise<boolean> {
  const row = await db.shop.findUnique({ where: { shop }, select: { flowTriggers: true } });
  return row?.flowTriggers === true;
}

/** Queues the trigger unless its event was queued before. */
export async function queueFlowTrigger(db: Db, shop: string, trigger: FlowTrigger, eventKey: string): Promise<void> {
  const row = jobRow(FLOW_TRIGGER_JOB, { shop, subject: subject(trigger.handle, eventKey), payload: trigger });
  // An upsert that changes nothing: a second learning neither fails the caller's transaction nor queues again.
  await db.job.upsert({ where: { key: row.key }, create: row, update: {} });
}

/** Queues the trigger when the shop has Flow on (one read of the switch). */
export async function queueFlowTriggerIfOn(db: Db, shop: string, trigger: FlowTrigger | (() => FlowTrigger), eventKey: string): Promise<boolean> {
  if (!(await flowTriggersOn(db, shop))) return false;
  await queueFlowTrigger(db, shop, typeof trigger === "function" ? trigger() : trigger, eventKey);
  return true;
}

/** The same job as one plain statement, for the order job to store with its settle (insertJobStatement). */
export function flowTriggerStatement(shop: string, trigger: FlowTrigger, eventKey: string, now: Date): Statement {
  return insertJobStatement(FLOW_TRIGGER_JOB, { shop, subject: subject(trigger.handle, eventKey), payload: trigger }, now);
}

/**
 * An ambassador's enrolment, once per ambassador whichever way the app learns
 * it (storefront, thank-you page, service webhook). A sent trigger's job is
 * kept after its payload is purged (its key keeps a repeat out): the key
 * names nobody, so the email is hashed, keyed with the app's secret
 * (SHOPIFY_API_SECRET), so that nobody can test guessed emails against it.
 */
export const enrolmentKey = (email: string, appSecret: string) =>
  `ambassador-keyed:${createHmac("sha256", appSecret).update(`referral-bridge/ambassador-enrolment\n${email.trim().toLowerCase()}`).digest("hex").slice(0, 32)}`;

/** The job key of an ambassador's enrolment trigger: a customer's redaction deletes that one row by its key. */
export const enrolmentJobKey = (shop: string, email: string, appSecret: string) =>
  jobKey(shop, FLOW_TRIGGER_JOB.name, subject(FLOW_TRIGGER_HANDLES.ambassadorEnrolled, enrolmentKey(email, appSecret)));

/** What the key of an enrolment trigger held before it was keyed: an unkeyed SHA-256 of the email. */
const UNKEYED = `:${FLOW_TRIGGER_HANDLES.ambassadorEnrolled}:ambassador:`;

/**
 * Enrolment triggers stored under the unkeyed hash, re-keyed once (run when
 * the app starts; nothing to do once none is left). One whose payload still
 * names the email gets the keyed key (or goes, when a keyed twin exists); one
 * the purge emptied cannot be re-keyed, as nobody knows whose it was, and is
 * deleted: should that ambassador's enrolment be learnt again, Flow hears of
 * it once more. Writes are conditional on the key read, so processes starting
 * together do each row once.
 */
export async function rekeyEnrolmentTriggers(db: PrismaClient, appSecret: string): Promise<{ rekeyed: number; deleted: number }> {
  const rows = await db.job.findMany({ where: { kind: FLOW_TRIGGER_JOB.name, key: { contains: UNKEYED } }, select: { id: true, shop: true, key: true, payload: true } });
  let rekeyed = 0;
  let deleted = 0;
  for (const row of rows) {
    const email = (JSON.parse(row.payload) as { payload?: Record<string, unknown> }).payload?.["Ambassador email"];
    const key = typeof email === "string" && email ? enrolmentJobKey(row.shop, email, appSecret) : null;
    if (key && !(await db.job.findUnique({ where: { key }, select: { id: true } }))) {
      rekeyed += (await db.job.updateMany({ where: { id: row.id, key: row.key }, data: { key } })).count;
    } else {
      deleted += (await db.job.deleteMany({ where: { id: row.id, key: row.key } })).count;
    }
  }
  return { rekeyed, deleted };
}
