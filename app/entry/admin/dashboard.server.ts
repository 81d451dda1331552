import type { PrismaClient } from "@prisma/client";
import { addMoney, type CompanyStats } from "../../platform/referral-api";
import { statusCounts } from "./activity.server";

export const CHART_DAYS = 30;
/** Orders whose commission stands: recorded, or recorded and then waiting for a review. Cancelled (reversed) orders are left out. */
const REFERRED = ["recorded", "needs_review"];

export interface SyncHealth {
  counts: Awaited<ReturnType<typeof statusCounts>>;
  lastSuccessAt: string | null;
  /** Jobs held until the shop fixes something (credentials, campaigns). */
  held: { count: number; reason: string | null };
  /** Order webhooks from the queue that were refused for good over the last `days` days, and the latest. */
  refused: { days: number; count: number; latest: { topic: string; reason: string; at: string } | null };
}

export const REFUSED_SHOWN_DAYS = 7;

export async function syncHealth(db: PrismaClient, shop: string, now = new Date()): Promise<SyncHealth> {
  const refusedWhere = { shop, receivedAt: { gte: new Date(now.getTime() - REFUSED_SHOWN_DAYS * 86_400_000) } };
  const [counts, last, heldCount, heldJob, refusedCount, refusedLatest] = await Promise.all([
    statusCounts(db, shop),
    db.orderRecord.aggregate({ where: { shop, recordedAt: { not: null } }, _max: { recordedAt: true } }),
    db.job.count({ where: { shop, status: "paused" } }),
    db.job.findFirst({ where: { shop, status: "paused" }, orderBy: { updatedAt: "desc" }, select: { lastError: true } }),
    db.refusedDelivery.count({ where: refusedWhere }),
    db.refusedDelivery.findFirst({ where: refusedWhere, orderBy: { receivedAt: "desc" }, select: { topic: true, reason: true, receivedAt: true } }),
  ]);
  return {
    counts,
    lastSuccessAt: last._max.recordedAt?.toISOString() ?? null,
    held: { count: heldCount, reason: heldJob?.lastError ?? null },
    refused: {
      days: REFUSED_SHOWN_DAYS,
      count: refusedCount,
      latest: refusedLatest ? { topic: refusedLatest.topic, reason: refusedLatest.reason, at: refusedLatest.receivedAt.toISOString() } : null,
    },
  };
}

export interface DailyPoint {
  /** YYYY-MM-DD (UTC). */
  date: string;
  orders: number;
  revenue: string;
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Referred orders and their revenue per day (UTC) over the last `days` days, today included, with empty days as zero. */
export async function dailyReferrals(
  db: PrismaClient,
  shop: string,
  now: Date,
  days = CHART_DAYS
): Promise<{ points: DailyPoint[]; currency: string | null; totalOrders: number; totalRevenue: string }> {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const records = await db.orderRecord.findMany({
    // The shop in each branch: SQLite then reads each through the (shop, placedAt, status) index, instead of every order of the shop.
    where: { status: { in: REFERRED }, OR: [{ shop, placedAt: { gte: first } }, { shop, placedAt: null, createdAt: { gte: first } }] },
    select: { placedAt: true, createdAt: true, revenue: true, currency: true },
  });
  const points = new Map<string, DailyPoint>();
  for (let i = 0; i < days; i++) {
    const date = dayOf(new Date(first.getTime() + i * 86_400_000));
    points.set(date, { date, orders: 0, revenue: "0.00" });
  }
  const currencies = new Map<string, number>();
  let totalRevenue = "0.00";
  for (const r of records) {
    const point = points.get(dayOf(r.placedAt ?? r.createdAt));
    if (!point) continue;
    point.orders += 1;
    if (r.revenue) {
      point.revenue = addMoney(point.revenue, r.revenue);
      totalRevenue = addMoney(totalRevenue, r.revenue);
    }
    if (r.currency) currencies.set(r.currency, (currencies.get(r.currency) ?? 0) + 1);
  }
  const currency = [...currencies.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return { points: [...points.values()], currency, totalOrders: records.length, totalRevenue };
}

export interface ProgramFigures {
  activeAmbassadors: number;
  deactivatedAmbassadors: number;
  activeCampaigns: number;
  clicks: number;
  commissions: { state: "pending" | "approved" | "denied"; count: number; sum: string }[];
  revenue: { pending: string; approved: string; denied: string };
  payouts: { state: "pending" | "paid" | "denied"; count: number; sum: string }[];
}

export function programFigures(stats: CompanyStats): ProgramFigures {
  const p = stats.production;
  return {
    activeAmbassadors: p.activatedAmbassadors,
    deactivatedAmbassadors: p.deactivatedAmbassadors,
    activeCampaigns: p.activeCampaigns,
    clicks: p.clicks,
    commissions: [
      { state: "pending", count: p.commissions.pendingCount, sum: p.commissions.pendingSum },
      { state: "approved", count: p.commissions.approvedCount, sum: p.commissions.approvedSum },
      { state: "denied", count: p.commissions.deniedCount, sum: p.commissions.deniedSum },
    ],
    revenue: { pending: p.revenue.pendingSum, approved: p.revenue.approvedSum, denied: p.revenue.deniedSum },
    payouts: [
      { state: "pending", count: p.payouts.pendingCount, sum: p.payouts.pendingSum },
      { state: "paid", count: p.payouts.paidCount, sum: p.payouts.paidSum },
      { state: "denied", count: p.payouts.deniedCount, sum: p.payouts.deniedSum },
    ],
  };
}

/** The theme embed writes the code into the cart: one order with a code from there shows it is on. */
export async function trackingEmbedSeen(db: PrismaClient, shop: string): Promise<boolean> {
  return (await db.orderRecord.count({ where: { shop, codeSource: "cart_attribute" }, take: 1 })) > 0;
}
