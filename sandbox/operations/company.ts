import { randomBytes } from "node:crypto";
import { badRequest, requiredMessage } from "../envelope";
import { DAY_MS, formatDate, parseDay, startOfDay } from "../dates";
import { formatCents } from "../money";
import type { EmailRecord, EmailType, Payout, Store } from "../state";
import { activeCampaigns } from "../domain/campaigns";
import { campaignInfo, companyInfo } from "../render";
import { commissionSums, revenueSums } from "../stats";
import type { OperationContext, OperationDef } from "./shared";

const get: OperationDef = {
  method: "GET",
  run({ store, now }) {
    return { company: companyInfo(store), campaigns: activeCampaigns(store, now).map(campaignInfo) };
  },
};

function payoutSums(payouts: Payout[]) {
  const of = (status: Payout["status"]) => payouts.filter((p) => p.status === status);
  const sum = (list: Payout[]) => formatCents(list.reduce((total, p) => total + p.amountHundredths, 0));
  return {
    pending_count: String(of("pending").length),
    paid_count: String(of("paid").length),
    denied_count: String(of("denied").length),
    pending_sum: sum(of("pending")),
    paid_sum: sum(of("paid")),
    denied_sum: sum(of("denied")),
  };
}

function companyStats(store: Store, now: number) {
  const production = [...store.ambassadors.values()].filter((a) => !a.sandbox);
  const campaigns = activeCampaigns(store, now);
  const commissions = [...store.commissions.values()].filter((c) => !c.sandbox);
  const isSandboxCampaign = (uid: string) => store.campaigns.get(uid)?.sandbox ?? false;
  return {
    production: {
      ambassadors: {
        activated_count: String(production.filter((a) => a.active).length),
        deactivated_count: String(production.filter((a) => !a.active).length),
      },
      campaigns: { active_count: String(campaigns.filter((c) => !c.sandbox).length) },
      commissions: commissionSums(commissions),
      revenue: revenueSums(commissions),
      payouts: payoutSums(store.payouts),
      clicks: { count: String(store.clicks.filter((c) => !isSandboxCampaign(c.campaignUid)).length) },
    },
    sandbox: {
      campaigns: { active_count: String(campaigns.filter((c) => c.sandbox).length) },
      clicks: { count: String(store.clicks.filter((c) => isSandboxCampaign(c.campaignUid)).length) },
    },
  };
}

const stats: OperationDef = {
  method: "GET",
  run({ store, now }) {
    return { company: companyInfo(store), stats: companyStats(store, now) };
  },
};

const token: OperationDef = {
  method: "GET",
  run({ store }) {
    const value = randomBytes(20).toString("hex");
    store.ssoTokens.push(value);
    return { token: value };
  },
};

const EMAIL_TYPES: EmailType[] = [
  "newAmbassador",
  "pendingCommission",
  "approvedCommission",
  "deniedCommission",
  "fulfilledPayout",
  "deniedPayout",
];

/** The sandbox "delivers" every recorded email; the other counters stay 0. */
function entry(date: string, emails: EmailRecord[]) {
  const count = emails.length;
  return {
    delivered: count,
    unsubscribes: 0,
    invalid_email: 0,
    bounces: 0,
    repeat_unsubscribes: 0,
    unique_clicks: 0,
    blocked: 0,
    spam_drop: 0,
    repeat_bounces: 0,
    repeat_spamreports: 0,
    requests: count,
    spamreports: 0,
    clicks: 0,
    opens: 0,
    unique_opens: 0,
    date,
  };
}

const MAX_DAYS = 366;

function emailPeriod({ params, store, now }: OperationContext): { fromMs: number; toMs: number; aggregate: boolean } {
  const aggregate = params.flag("aggregate") ?? false;
  const start = params.get("start_date");
  const end = params.get("end_date");
  if ((start === undefined) !== (end === undefined)) {
    throw badRequest(requiredMessage([start === undefined ? "start_date" : "end_date"], params.wording));
  }
  if (start === undefined || end === undefined) {
    if (!aggregate) return { fromMs: startOfDay(now), toMs: startOfDay(now) + DAY_MS, aggregate };
    const first = store.emails[0]?.sentMs ?? now;
    return { fromMs: startOfDay(Math.min(first, now)), toMs: startOfDay(now) + DAY_MS, aggregate };
  }
  const fromMs = parseDay(start);
  const lastMs = parseDay(end);
  if (fromMs === undefined || lastMs === undefined) {
    const bad = fromMs === undefined ? "start_date" : "end_date";
    throw badRequest(`The following ${params.wording} parameter must be a date (YYYY-MM-DD): ${bad}.`);
  }
  if (lastMs < fromMs) throw badRequest("The start_date must not be after the end_date.");
  if ((lastMs - fromMs) / DAY_MS >= MAX_DAYS) throw badRequest(`The period may cover at most ${MAX_DAYS} days.`);
  return { fromMs, toMs: lastMs + DAY_MS, aggregate };
}

const emails: OperationDef = {
  method: "GET",
  run(ctx) {
    const { fromMs, toMs, aggregate } = emailPeriod(ctx);
    const inPeriod = ctx.store.emails.filter((e) => e.sentMs >= fromMs && e.sentMs < toMs);
    const series = (list: EmailRecord[]) => {
      if (aggregate) return [entry(formatDate(fromMs), list)];
      const days = [];
      for (let day = fromMs; day < toMs; day += DAY_MS) {
        days.push(entry(formatDate(day), list.filter((e) => e.sentMs >= day && e.sentMs < day + DAY_MS)));
      }
      return days;
    };
    return {
      total: series(inPeriod),
      email_types: Object.fromEntries(EMAIL_TYPES.map((type) => [type, series(inPeriod.filter((e) => e.type === type))])),
    };
  },
};

export const companyOperations: Record<string, OperationDef> = {
  "company/get": get,
  "company/stats": stats,
  "company/token": token,
  "company/emails": emails,
};
