import { readFields } from "../field-reader";
import { parseMoney } from "../money";
import type { CompanyStats, PayoutTotals } from "../types";
import { normaliseCommissionTotals, normaliseRevenueTotals } from "./stats";

const ZERO = parseMoney(0);

function count(raw: Record<string, unknown> | null, key: string): number {
  return (raw ? readFields(raw, "statistics").number(key) : null) ?? 0;
}

function normalisePayouts(raw: unknown): PayoutTotals {
  const r = readFields(raw ?? {}, "payout totals");
  return {
    pendingCount: r.number("pending_count") ?? 0,
    paidCount: r.number("paid_count") ?? 0,
    deniedCount: r.number("denied_count") ?? 0,
    pendingSum: r.money("pending_sum") ?? ZERO,
    paidSum: r.money("paid_sum") ?? ZERO,
    deniedSum: r.money("denied_sum") ?? ZERO,
    extra: r.extra(),
  };
}

/** `stats` of company/stats: `production` and `sandbox` figures. */
export function normaliseCompanyStats(raw: unknown): CompanyStats {
  const r = readFields(raw ?? {}, "company statistics");
  const production = readFields(r.object("production") ?? {}, "production statistics");
  const sandbox = readFields(r.object("sandbox") ?? {}, "sandbox statistics");
  const ambassadors = production.object("ambassadors");
  const productionCampaigns = production.object("campaigns");
  const productionClicks = production.object("clicks");
  const sandboxCampaigns = sandbox.object("campaigns");
  const sandboxClicks = sandbox.object("clicks");
  return {
    production: {
      activatedAmbassadors: count(ambassadors, "activated_count"),
      deactivatedAmbassadors: count(ambassadors, "deactivated_count"),
      activeCampaigns: count(productionCampaigns, "active_count"),
      commissions: normaliseCommissionTotals(production.object("commissions") ?? {}),
      revenue: normaliseRevenueTotals(production.object("revenue") ?? {}),
      payouts: normalisePayouts(production.object("payouts") ?? {}),
      clicks: count(productionClicks, "count"),
      extra: production.extra(),
    },
    sandbox: {
      activeCampaigns: count(sandboxCampaigns, "active_count"),
      clicks: count(sandboxClicks, "count"),
      extra: sandbox.extra(),
    },
    extra: r.extra(),
  };
}
