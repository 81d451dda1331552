import { parseServiceDate } from "../dates";
import { readFields } from "../field-reader";
import { parseMoney } from "../money";
import { isRecord } from "../scalars";
import type { ChannelStats, CommissionTotals, RevenueTotals, StatsBlock, StatsSummary } from "../types";

// Totals the service leaves out count as zero.
const ZERO = parseMoney(0);

export function normaliseCommissionTotals(raw: unknown): CommissionTotals {
  const r = readFields(raw ?? {}, "commission totals");
  return {
    pendingCount: r.number("pending_count") ?? 0,
    approvedCount: r.number("approved_count") ?? 0,
    deniedCount: r.number("denied_count") ?? 0,
    pendingSum: r.money("pending_sum") ?? ZERO,
    approvedSum: r.money("approved_sum") ?? ZERO,
    deniedSum: r.money("denied_sum") ?? ZERO,
    extra: r.extra(),
  };
}

export function normaliseRevenueTotals(raw: unknown): RevenueTotals {
  const r = readFields(raw ?? {}, "revenue totals");
  return {
    pendingSum: r.money("pending_sum") ?? ZERO,
    approvedSum: r.money("approved_sum") ?? ZERO,
    deniedSum: r.money("denied_sum") ?? ZERO,
    extra: r.extra(),
  };
}

function normaliseChannel(raw: unknown): ChannelStats {
  const r = readFields(isRecord(raw) ? raw : {}, "channel stats");
  const commissions = r.object("commissions");
  const revenue = r.object("revenue");
  return {
    countShares: r.number("count_shares"),
    countClicks: r.number("count_clicks"),
    uniqueReferrals: r.number("unique_referrals"),
    commissions: commissions ? normaliseCommissionTotals(commissions) : null,
    revenue: revenue ? normaliseRevenueTotals(revenue) : null,
    extra: r.extra(),
  };
}

export function normaliseStatsBlock(raw: unknown): StatsBlock {
  const r = readFields(raw ?? {}, "stats");
  const channels: Record<string, ChannelStats> = {};
  for (const [name, value] of Object.entries(r.object("channels") ?? {})) channels[name] = normaliseChannel(value);
  return {
    commissions: normaliseCommissionTotals(r.object("commissions") ?? {}),
    revenue: normaliseRevenueTotals(r.object("revenue") ?? {}),
    countClicks: r.number("count_clicks") ?? 0,
    countShares: r.number("count_shares") ?? 0,
    uniqueReferrals: r.number("unique_referrals") ?? 0,
    channels,
    extra: r.extra(),
  };
}

export function normaliseStatsSummary(raw: unknown): StatsSummary {
  const source = isRecord(raw) ? raw : {};
  const { start_date: startDate, end_date: endDate, ...rest } = source;
  return {
    ...normaliseStatsBlock(rest),
    startDate: parseServiceDate(startDate),
    endDate: parseServiceDate(endDate),
  };
}
