import type { PrismaClient } from "@prisma/client";
import type { z } from "zod";
import { outcomeOfServiceError } from "../connection";
import { decide, decideInJob } from "../commissions";
import { insertJobStatement } from "../../platform/queue/enqueue.server";
import { jobKey } from "../../platform/queue/job-row";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import type { JobMeta } from "../../platform/queue/registry";
import type { Statement } from "../../platform/db/sql.server";
import type { ReferralClient } from "../../platform/referral-api";
import { REVIEW_APPROVE_JOB } from "./job-kinds";
import type { OrderJobContext } from "./order-job-context";
import { leakHoldOf } from "./leaked-codes.server";
import { holdsLeakedCommissions, LEAK_HOLD_SELECT } from "./leaked-code";
import { findOrderRecord, parseJsonObject, type CampaignResults } from "./order-records.server";

// The review window (decision 032): a pending commission approves itself a
// number of days after its order, unless the order was refunded, cancelled or
// denied meanwhile, or its code was flagged as leaked and the shop holds such
// commissions (decision 036). The recording job stores one approval job per order, due
// when the window ends, with its own result: the job's unique key makes it
// one, and the claim's lease makes one worker run it at a time. The
// approval goes through decide, as the merchant's does (the state, the Flow
// trigger keyed by order, campaign and decision). An answer lost after the
// service approved (the worker killed, the connection cut) leaves the
// service saying "not pending" to the next attempt: that attempt reads the
// commission at the service and stores what it finds, once.

export const MAX_REVIEW_WINDOW_DAYS = 365;
const DAY_MS = 24 * 60 * 60_000;

type Payload = z.infer<(typeof REVIEW_APPROVE_JOB)["payload"]>;

/** When the window of an order placed at `placedAt` ends. */
export function reviewEnds(placedAt: Date, days: number): Date {
  return new Date(placedAt.getTime() + days * DAY_MS);
}

/** The approval job of a recorded order whose commission may be pending, due when its window ends (at once for an order older than the window). */
export function reviewApprovalStatement(shop: string, orderId: string, placedAt: Date, days: number, now: Date): Statement {
  const ends = reviewEnds(placedAt, days);
  return insertJobStatement(REVIEW_APPROVE_JOB, { shop, subject: orderId, payload: { orderId }, runAt: ends > now ? ends : now }, now);
}

/** When each of these orders' pending commission approves itself, for the orders whose approval is still to come (read by the job's key). */
export async function reviewApprovalDates(db: PrismaClient, shop: string, orderIds: readonly string[]): Promise<Map<string, Date>> {
  if (orderIds.length === 0) return new Map();
  const keys = new Map(orderIds.map((id) => [jobKey(shop, REVIEW_APPROVE_JOB.name, id), id]));
  const jobs = await db.job.findMany({ where: { key: { in: [...keys.keys()] }, status: { in: ["queued", "running", "paused"] } }, select: { key: true, runAt: true } });
  return new Map(jobs.map((job) => [keys.get(job.key)!, job.runAt]));
}

/** Why the window's end approves nothing: the order changed meanwhile, or someone decided. Null: it approves. */
function nothingToApprove(record: { status: string; commissionState: string | null; refunds: string | null; flags: string | null }): string | null {
  if (record.status !== "recorded") return `the order is ${record.status.replace("_", " ")}`;
  if (record.commissionState === "approved" || record.commissionState === "denied") return `the commission was ${record.commissionState} meanwhile`;
  if (Object.keys(parseJsonObject<Record<string, string>>(record.refunds)).length > 0) return "the order was refunded within the window";
  if (record.flags) return "the referral guard flagged it for your review";
  return null;
}

/**
 * The commission at the service, for an attempt that found it no longer
 * pending: an earlier attempt's approval whose answer was lost, or someone
 * else's decision. Read from the referrer's commissions since the order's day.
 */
async function commissionAtService(client: ReferralClient, orderId: string, campaignUid: string, referrer: string, placedAt: Date) {
  const from = new Date(placedAt.getTime() - DAY_MS);
  for (let page = 1; page <= 20; page++) {
    const found = await client.listCommissions({ email: referrer, createdAfter: from, page });
    const match = found.items.find((c) => c.transactionId === orderId && c.campaignUid === campaignUid);
    if (match) return match;
    if (!found.hasMore) return null;
  }
  return null;
}

/** The order.review-approve job: approves each pending commission of the order at the service, through decide. */
export async function approveAfterReview(ctx: OrderJobContext, shop: string, { orderId }: Payload, job: JobMeta): Promise<JobOutcome> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (!record) return done;
  const hold = holdsLeakedCommissions(await ctx.db.shop.findUnique({ where: { shop }, select: LEAK_HOLD_SELECT }));
  const why = nothingToApprove(record) ?? (await leakHoldOf(ctx.db, shop, record, hold));
  if (why) {
    ctx.logger.info({ shop, orderId, why }, "review window over: nothing approved");
    return done;
  }
  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { type: "pause", reason: connection.reason };
  const { client } = connection;
  const results = parseJsonObject<CampaignResults>(record.results);
  try {
    for (const [campaignUid, result] of Object.entries(results)) {
      if (result.state !== "recorded" || result.held) continue;
      // The campaign's own approval decided it as it was recorded.
      if (record.commissionState === null && (await ctx.codes.campaignAutoApproves(client, shop, campaignUid))) continue;
      const commission = { orderId, campaignUid, referrerEmail: result.referrer };
      const row = await decideInJob({ db: ctx.db, client }, { shop, service: "ask", state: "approved", by: "app", commission, readAs: record.commissionState });
      // A first attempt told "not pending" met someone else's decision; a later one may meet its own earlier approval.
      if (!row.skipped || job.attempts <= 1 || !result.referrer) continue;
      const found = await commissionAtService(client, orderId, campaignUid, result.referrer, record.placedAt ?? record.createdAt);
      if (found?.status === "approved" || found?.status === "denied") {
        await decide({ db: ctx.db }, { shop, service: "reported", state: found.status, by: found.status === "approved" ? "app" : "referral service", commission, readAs: record.commissionState });
      }
    }
  } catch (error) {
    return outcomeOfServiceError(error);
  }
  return done;
}
