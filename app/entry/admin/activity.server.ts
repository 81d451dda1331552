import type { Job, OrderRecord, PrismaClient } from "@prisma/client";
import { z } from "zod";
import { commissionsOfOrder } from "../../domains/commissions";
import { needsReview, resendOrder as resendOrderRecord, resolveReview, skipOrder as skipOrderRecord } from "../../domains/referrals";
import { recordJobKey } from "../../domains/referrals/job-kinds";
import { isReferralApiError, type Commission, type ReferralClient } from "../../platform/referral-api";
import {
  findOrderRecord,
  ORDER_STATUSES,
  orderReferrers,
  parseJsonObject,
  type CampaignResults,
  type OrderStatus,
} from "../../domains/referrals/order-records.server";
import { readExplanation, type Explanation } from "../../domains/referrals/explanation";
import { GUARD_LABELS, type GuardRule } from "../../domains/referrals/guard-settings";
import { nowOf, type AdminContext } from "./admin-context";
import { describeServiceError } from "./service-errors.server";
import { withService } from "./shop-service.server";

export const ACTIVITY_PAGE_SIZE = 25;

/** Which statuses the merchant can act on, and how. */
export const ACTIONABLE: Partial<Record<OrderStatus, { retry: "resend" | "recheck"; skip: true }>> = {
  failed: { retry: "resend", skip: true },
  needs_review: { retry: "recheck", skip: true },
};

export interface ActivityRow {
  orderId: string;
  orderName: string | null;
  email: string | null;
  status: OrderStatus;
  statusReason: string | null;
  attempts: number;
  lastError: string | null;
  code: string | null;
  codeKind: "link" | "coupon" | null;
  campaignUids: string[];
  revenue: string | null;
  currency: string | null;
  commissionState: string | null;
  /** When the buyer placed the order (when the app stored it, for a row from before placedAt was kept). */
  placedAt: string;
  recordedAt: string | null;
  /** The order's recording job is held until the shop is fixed (e.g. no campaign chosen). */
  heldReason: string | null;
  nextAttemptAt: string | null;
  retry: "resend" | "recheck" | null;
  canSkip: boolean;
  /** Why the order was credited or not (null until its job has decided). */
  explanation: Explanation | null;
  /** The guard rules that flagged it (it was sent as pending). */
  flags: { rule: string; label: string }[];
}

export const activityQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export type ActivityQuery = z.infer<typeof activityQuerySchema>;

const isStatus = (s: string): s is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(s);

/** Statuses a decision settled; a row of one stored before explanations were kept shows the code stored with it. */
const DECIDED: ReadonlySet<OrderStatus> = new Set(["recorded", "blocked", "needs_review", "reversed"]);

/** The code the decision picked, and nothing else: a row still to be decided (queued, waiting, failed) or not referred shows none. */
function codeShown(record: OrderRecord, status: OrderStatus, explanation: Explanation | null): Pick<ActivityRow, "code" | "codeKind"> {
  if (explanation) {
    const winner = explanation.winner;
    return winner ? { code: winner.code, codeKind: winner.sentAs === "short_code" ? "link" : "coupon" } : { code: null, codeKind: null };
  }
  if (!DECIDED.has(status)) return { code: null, codeKind: null };
  return { code: record.shortCode ?? record.couponCode, codeKind: record.shortCode ? "link" : record.couponCode ? "coupon" : null };
}

function rowOf(record: OrderRecord, job: Job | undefined): ActivityRow {
  const status = isStatus(record.status) ? record.status : "queued";
  const actions = ACTIONABLE[status];
  const explanation = readExplanation(record.explanation);
  return {
    orderId: record.orderId,
    orderName: record.orderName,
    email: record.email,
    status,
    statusReason: record.statusReason,
    attempts: Math.max(record.attempts, job && status === "queued" ? job.attempts : 0),
    lastError: record.lastError ?? (status === "queued" && job?.status !== "paused" ? job?.lastError ?? null : null),
    ...codeShown(record, status, explanation),
    campaignUids: (record.campaignUids ?? "").split(",").filter(Boolean),
    revenue: record.revenue,
    currency: record.currency,
    commissionState: record.commissionState,
    placedAt: (record.placedAt ?? record.createdAt).toISOString(),
    recordedAt: record.recordedAt?.toISOString() ?? null,
    heldReason: status === "queued" && job?.status === "paused" ? job.lastError : null,
    nextAttemptAt: status === "queued" && job?.status === "queued" && job.attempts > 0 ? job.runAt.toISOString() : null,
    retry: actions?.retry ?? null,
    canSkip: actions?.skip ?? false,
    explanation,
    flags: (record.flags ?? "")
      .split(",")
      .filter(Boolean)
      .map((rule) => ({ rule, label: GUARD_LABELS[rule as GuardRule] ?? rule })),
  };
}

export async function statusCounts(db: PrismaClient, shop: string): Promise<Record<OrderStatus, number>> {
  const groups = await db.orderRecord.groupBy({ by: ["status"], where: { shop }, _count: { _all: true } });
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const g of groups) if (isStatus(g.status)) counts[g.status] = g._count._all;
  return counts;
}

/** One page of the shop's order records, the last placed first (the (shop, placedAt, status) index, decision 021). */
export async function listActivity(ctx: Pick<AdminContext, "db">, shop: string, query: ActivityQuery) {
  const where = { shop, ...(query.status ? { status: query.status } : {}) };
  const [records, total, counts] = await Promise.all([
    ctx.db.orderRecord.findMany({
      where,
      orderBy: [{ placedAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * ACTIVITY_PAGE_SIZE,
      take: ACTIVITY_PAGE_SIZE,
    }),
    ctx.db.orderRecord.count({ where }),
    statusCounts(ctx.db, shop),
  ]);
  const keys = records.map((r) => recordJobKey(shop, r.orderId));
  const jobs = await ctx.db.job.findMany({ where: { shop, key: { in: keys } } });
  const jobOf = new Map(jobs.map((j) => [j.key, j]));
  return {
    rows: records.map((r) => rowOf(r, jobOf.get(recordJobKey(shop, r.orderId)))),
    page: query.page,
    pageSize: ACTIVITY_PAGE_SIZE,
    total,
    hasMore: query.page * ACTIVITY_PAGE_SIZE < total,
    counts,
  };
}

export interface ActivityActionResult {
  ok: boolean;
  tone: "success" | "info" | "warning" | "critical";
  title: string;
  message: string;
  /** e.g. "Review in Commissions". */
  action?: { content: string; url: string };
}

const refusal = (title: string, message: string): ActivityActionResult => ({ ok: false, tone: "critical", title, message });
const NOT_FOUND = refusal("Order not found", "This order isn't in your activity any more. Reload the page.");


/**
 * Retry of a failed order: its recording job is queued again, due now, with a
 * fresh set of attempts; the worker picks it up at once.
 */
export async function resendOrder(
  ctx: Pick<AdminContext, "db" | "now" | "logger">,
  shop: string,
  orderId: string
): Promise<ActivityActionResult> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (!record) return NOT_FOUND;
  const resent = await resendOrderRecord(ctx.db, record, nowOf(ctx));
  if (!resent.ok) {
    switch (resent.why) {
      case "not_failed":
        return refusal("Nothing to retry", `Order ${record.orderName ?? orderId} is ${record.status.replace("_", " ")}, not failed.`);
      case "running":
        return refusal("Already being sent", "This order is being sent right now. Reload the page in a moment.");
      case "not_stored":
        return refusal(
          "Can't retry this order",
          "Its original order details are no longer stored, so it can't be sent again. Skip it instead."
        );
    }
  }
  ctx.logger?.info({ shop, orderId }, "order retry requested by the merchant");
  return {
    ok: true,
    tone: "success",
    title: "Retry started",
    message: `Order ${record.orderName ?? orderId} is being sent to the referral service again.`,
  };
}

/**
 * Retry of an order that needs review: the service can't change a commission
 * that is no longer pending, so nothing is sent again. Instead the order's
 * commissions are read again; when the merchant has denied them at the
 * service, the order is closed as reversed. Otherwise it stays for review.
 */
export async function recheckOrder(
  ctx: Pick<AdminContext, "db">,
  shop: string,
  orderId: string,
  client: ReferralClient
): Promise<ActivityActionResult> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (!record) return NOT_FOUND;
  if (record.status !== "needs_review") {
    return refusal("Nothing to check", `Order ${record.orderName ?? orderId} doesn't need a review.`);
  }
  const toReview = needsReview(parseJsonObject<CampaignResults>(record.results));
  const review = { content: "Review in Commissions", url: `/app/commissions?order=${encodeURIComponent(orderId)}` };
  let commissions: Commission[];
  try {
    commissions = await commissionsOfOrder(client, { orderId, referrers: orderReferrers(record) });
  } catch (error) {
    if (!isReferralApiError(error)) throw error;
    const words = describeServiceError(error);
    return { ok: false, tone: "critical", title: words.title, message: words.message };
  }
  const stateIn = (uid: string) => commissions.find((c) => c.campaignUid === uid)?.status ?? null;
  const open = toReview.filter((uid) => stateIn(uid) !== "denied");
  if (open.length > 0) {
    const described = open.map((uid) => `campaign ${uid}: ${stateIn(uid) ?? "not found"}`).join(", ");
    return {
      ok: false,
      tone: "warning",
      title: "Still needs your review",
      message: `The commission can't be changed through the app any more (${described}). Deny or adjust it in your referral program's dashboard, then check again, or skip this order to keep the commission.`,
      action: review,
    };
  }
  await resolveReview(ctx.db, record);
  return {
    ok: true,
    tone: "success",
    title: "Review resolved",
    message: `The commission of order ${record.orderName ?? orderId} is denied now.`,
  };
}

/** The merchant decided this order should not be sent or reviewed: it is closed, with its jobs. */
export async function skipOrder(
  ctx: Pick<AdminContext, "db" | "logger">,
  shop: string,
  orderId: string
): Promise<ActivityActionResult> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (!record) return NOT_FOUND;
  const skipped = await skipOrderRecord(ctx.db, record);
  if (!skipped.ok) {
    return skipped.why === "running"
      ? refusal("Being sent right now", "This order is being sent at the moment. Reload the page in a moment.")
      : refusal(
          "Can't skip this order",
          `Only failed orders and orders that need review can be skipped; this one is ${record.status.replace("_", " ")}.`
        );
  }
  ctx.logger?.info({ shop, orderId, was: record.status }, "order skipped by the merchant");
  return {
    ok: true,
    tone: "success",
    title: "Order skipped",
    message: `Order ${record.orderName ?? orderId} won't be sent or reviewed again.`,
  };
}

/**
 * "Retry now" on the activity page: a failed order is sent again
 * (resendOrder); an order that needs review is checked again at the service
 * (recheckOrder).
 */
export async function retryOrder(ctx: AdminContext, shop: string, orderId: string): Promise<ActivityActionResult> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (!record) return NOT_FOUND;
  if (record.status !== "needs_review") return resendOrder(ctx, shop, orderId);
  const checked = await withService(ctx, shop, (client) => recheckOrder(ctx, shop, orderId, client));
  if (checked.ok) return checked.value;
  return {
    ok: false,
    tone: "critical",
    title: checked.error.title,
    message: checked.error.message,
    action: checked.error.action,
  };
}

export const activityActionSchema = z.object({
  intent: z.enum(["retry", "skip"], { message: "Choose retry or skip." }),
  orderId: z.string().regex(/^[\w-]{1,64}$/, "This order id isn't valid."),
});
