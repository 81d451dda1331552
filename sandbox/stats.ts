// Stats blocks of ambassador/stats and company/stats, computed from the store.
import { formatCents } from "./money";
import type { Commission, Store } from "./state";

/** The social-network channel reported beside `email`. */
export const SOCIAL_CHANNEL = "facebook";

export interface StatsScope {
  ambassadorId: number;
  campaignUid?: string;
  fromMs: number;
  /** exclusive */
  toMs: number;
}

/** Counts cover every commission; sums are money (points commissions count but add nothing). */
export function commissionSums(list: Commission[]) {
  const count = [0, 0, 0];
  const sum = [0, 0, 0];
  for (const c of list) {
    count[c.state] += 1;
    if (c.unit === "money") sum[c.state] += c.amountHundredths;
  }
  return {
    pending_count: String(count[0]),
    approved_count: String(count[1]),
    denied_count: String(count[2]),
    pending_sum: formatCents(sum[0]),
    approved_sum: formatCents(sum[1]),
    denied_sum: formatCents(sum[2]),
  };
}

export function revenueSums(list: Commission[]) {
  const sum = [0, 0, 0];
  for (const c of list) sum[c.state] += c.revenueCents;
  return { pending_sum: formatCents(sum[0]), approved_sum: formatCents(sum[1]), denied_sum: formatCents(sum[2]) };
}

export function statsBlock(store: Store, scope: StatsScope) {
  const inScope = (campaignUid: string, ms: number) =>
    (!scope.campaignUid || campaignUid === scope.campaignUid) && ms >= scope.fromMs && ms < scope.toMs;

  const commissions = store.commissionsOf(scope.ambassadorId).filter((c) => inScope(c.campaignUid, c.createdMs));
  const referrals = store.referralsBy(scope.ambassadorId).filter((r) => inScope(r.campaignUid, r.createdMs));
  const clicks = store.clicks.filter((c) => c.ambassadorId === scope.ambassadorId && inScope(c.campaignUid, c.createdMs));
  const shares = store.shares.filter((s) => s.ambassadorId === scope.ambassadorId && inScope(s.campaignUid, s.createdMs));
  const channelOf = (c: Commission) =>
    c.customerAmbassadorId === null ? null : (store.referralOf(c.campaignUid, c.customerAmbassadorId)?.channel ?? null);

  const channel = (name: string) => {
    const own = commissions.filter((c) => channelOf(c) === name);
    return {
      count_shares: String(shares.filter((s) => s.channel === name).length),
      count_clicks: name === "email" ? "N/A" : String(clicks.filter((c) => c.channel === name).length),
      unique_referrals: String(new Set(referrals.filter((r) => r.channel === name).map((r) => r.customerId)).size),
      commissions: commissionSums(own),
      revenue: revenueSums(own),
    };
  };

  return {
    commissions: commissionSums(commissions),
    revenue: revenueSums(commissions),
    count_clicks: String(clicks.length),
    count_shares: String(shares.length),
    unique_referrals: String(new Set(referrals.map((r) => r.customerId)).size),
    channels: { email: channel("email"), [SOCIAL_CHANNEL]: channel(SOCIAL_CHANNEL) },
  };
}
