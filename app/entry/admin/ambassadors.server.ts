import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { askShareLinkSync } from "../../domains/customer-metafields/ask-share-link.server";
import { webUrlOrNull } from "../../platform/text/web-url";
import { isReferralApiError } from "../../platform/referral-api";
import type {
  Ambassador,
  ChannelStats,
  CommissionTotals,
  Group,
  ListAmbassadorsParams,
  ReferralClient,
  RevenueTotals,
  StatsBlock,
} from "../../platform/referral-api";
import { holdsLeakedCommissions, LEAK_HOLD_SELECT, leakedCodesOf } from "../../domains/referrals";
import type { AdminContext } from "./admin-context";
import { fieldErrorsOf, formFields } from "./form-data";
import { isoDate, pageNumber, parseQueryFields } from "./query-fields";

const decimal = z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, "Enter an amount like 25 or 25.50.");
const count = z
  .string()
  .regex(/^\d{1,9}$/, "Enter a whole number.")
  .transform(Number);

export const ambassadorFilterShape = {
  minMoney: decimal,
  minPoints: count,
  minReferrals: count,
  active: z.enum(["active", "inactive"], { message: "Choose active or deactivated." }),
  group: z.string().regex(/^[\w-]{1,40}$/, "Choose a group from the list."),
  from: isoDate,
  to: isoDate,
  email: z.email("Enter a full email address."),
};

export function parseAmbassadorQuery(params: URLSearchParams) {
  const { values, errors, raw } = parseQueryFields(ambassadorFilterShape, params);
  return { filters: values, errors, raw, page: pageNumber.parse(params.get("page") ?? 1) };
}

export type AmbassadorQuery = ReturnType<typeof parseAmbassadorQuery>;

export interface AmbassadorRow {
  email: string;
  name: string | null;
  balanceMoney: string | null;
  balancePoints: string | null;
  moneyPaid: string | null;
  uniqueReferrals: number | null;
  createdAt: string | null;
  sandbox: boolean;
  fraudScore: number | null;
  fraudLabel: string | null;
  shareUrl: string | null;
}

const fullName = (a: Pick<Ambassador, "firstName" | "lastName">) => [a.firstName, a.lastName].filter(Boolean).join(" ") || null;

function rowOf(a: Ambassador): AmbassadorRow {
  return {
    email: a.email,
    name: fullName(a),
    balanceMoney: a.balanceMoney,
    balancePoints: a.balancePoints,
    moneyPaid: a.moneyPaid,
    uniqueReferrals: a.uniqueReferrals,
    createdAt: a.createdAt?.toISOString() ?? null,
    sandbox: a.sandbox ?? false,
    fraudScore: a.fraudScorePercentUi ?? a.fraudScore,
    fraudLabel: a.fraudScoreHumanReadable,
    shareUrl: webUrlOrNull(a.memorableUrl),
  };
}

/** One page (100) of ambassador/all with the merchant's filters. */
export async function listAmbassadorsPage(client: ReferralClient, { filters, page }: AmbassadorQuery) {
  const params: ListAmbassadorsParams = {
    page,
    minMoney: filters.minMoney,
    minPoints: filters.minPoints,
    minReferrals: filters.minReferrals,
    isActive: filters.active === undefined ? undefined : filters.active === "active",
    group: filters.group,
    createdAfter: filters.from,
    createdBefore: filters.to,
    email: filters.email,
  };
  const result = await client.listAmbassadors(params);
  return { rows: result.items.map(rowOf), page: result.page, hasMore: result.hasMore };
}

export const statsRangeShape = { from: isoDate, to: isoDate };

/** The ambassador page's optional date range, each field checked on its own. */
export function parseStatsRange(params: URLSearchParams) {
  return parseQueryFields(statsRangeShape, params);
}

/** The ambassador page's URL names the ambassador by email. */
export const ambassadorEmailParam = z.email();

export interface Figures {
  clicks: number;
  shares: number;
  referrals: number;
  commissions: CommissionTotals;
  revenue: RevenueTotals;
}

const figuresOf = (s: StatsBlock | ChannelStats): Figures => ({
  clicks: s.countClicks ?? 0,
  shares: s.countShares ?? 0,
  referrals: s.uniqueReferrals ?? 0,
  commissions: s.commissions ?? emptyCommissions,
  revenue: s.revenue ?? emptyRevenue,
});

const emptyCommissions = {
  pendingCount: 0,
  approvedCount: 0,
  deniedCount: 0,
  pendingSum: "0.00",
  approvedSum: "0.00",
  deniedSum: "0.00",
  extra: {},
} as unknown as CommissionTotals;
const emptyRevenue = { pendingSum: "0.00", approvedSum: "0.00", deniedSum: "0.00", extra: {} } as unknown as RevenueTotals;

export interface AmbassadorDetail {
  email: string;
  name: string | null;
  status: string | null;
  active: boolean;
  groups: string[];
  balanceMoney: string | null;
  balancePoints: string | null;
  moneyPaid: string | null;
  createdAt: string | null;
  shareUrl: string | null;
  range: { from: string | null; to: string | null };
  summary: Figures | null;
  channels: { name: string; clicksTracked: boolean; figures: Figures }[];
  campaigns: { uid: string | null; name: string; url: string | null; earned: string | null; figures: Figures | null }[];
  allGroups: { id: string; name: string; description: string | null }[];
  pointName: string;
}

/**
 * ambassador/stats for a date range, with the ambassador's status and groups
 * (ambassador/get) and the program's groups; null when the service doesn't
 * know the email.
 */
export async function ambassadorDetail(
  client: ReferralClient,
  email: string,
  range: { from?: string; to?: string }
): Promise<AmbassadorDetail | null> {
  const unknownIsNull = (error: unknown) => {
    if (isReferralApiError(error) && error.kind === "not_found") return null;
    throw error;
  };
  const [stats, profile, groups, company] = await Promise.all([
    client.getAmbassadorStats({ email, startDate: range.from, endDate: range.to }).catch(unknownIsNull),
    client.getAmbassador({ email }).catch(unknownIsNull),
    client.listGroups(),
    client.getCompany().catch((error: unknown) => {
      if (isReferralApiError(error)) return null;
      throw error;
    }),
  ]);
  if (!stats || !profile) return null;
  const a = profile.ambassador;
  const summary = stats.ambassador.statsSummary;
  return {
    email: a.email,
    name: fullName(a),
    status: a.status,
    active: a.status !== "banned",
    groups: a.groups,
    balanceMoney: a.balanceMoney,
    balancePoints: a.balancePoints,
    moneyPaid: a.moneyPaid,
    createdAt: a.createdAt?.toISOString() ?? null,
    shareUrl: webUrlOrNull(a.memorableUrl),
    range: { from: range.from ?? null, to: range.to ?? null },
    summary: summary ? figuresOf(summary) : null,
    channels: Object.entries(summary?.channels ?? {}).map(([name, channel]) => ({
      name,
      clicksTracked: channel.countClicks !== null,
      figures: figuresOf(channel),
    })),
    campaigns: stats.ambassador.campaignLinks.map((link) => ({
      uid: link.campaignUid,
      name: link.campaignName ?? `Campaign ${link.campaignUid ?? "?"}`,
      url: webUrlOrNull(link.url),
      earned: link.totalMoneyEarned,
      figures: link.stats ? figuresOf(link.stats) : null,
    })),
    allGroups: groups.map((g: Group) => ({ id: g.groupId, name: g.name ?? `Group ${g.groupId}`, description: g.description })),
    pointName: company?.company.pointName ?? "points",
  };
}

export const ambassadorUpdateSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("activate") }),
  z.object({ intent: z.literal("deactivate") }),
  z.object({
    intent: z.literal("groups"),
    groups: z.array(z.string().regex(/^[\w-]{1,40}$/, "Choose groups from the list.")).max(100),
  }),
]);

export type AmbassadorUpdateResult = { ok: true; message: string } | { ok: false; fieldErrors: Record<string, string> };

/**
 * Activates, deactivates or regroups one ambassador with ambassador/update.
 * A (de)activation also brings the share link on their Shopify customer in
 * step (a job: removed when deactivated, written again when activated).
 */
export async function updateAmbassador(
  deps: { client: ReferralClient; db: PrismaClient; shop: string },
  email: string,
  form: FormData,
): Promise<AmbassadorUpdateResult> {
  const { client } = deps;
  const parsed = ambassadorUpdateSchema.safeParse(formFields(form, ["groups"]));
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrorsOf(parsed.error.issues) };
  const input = parsed.data;
  if (input.intent === "groups") {
    // "-1" means no group, as for add_to_group_id.
    await client.updateAmbassador({ email, setGroups: input.groups.length > 0 ? input.groups : "-1" });
    return { ok: true, message: input.groups.length > 0 ? "Groups saved." : "Removed from every group." };
  }
  await client.updateAmbassador({ email, isDeactivated: input.intent === "deactivate" });
  await askShareLinkSync(deps.db, deps.shop, email, { reason: "admin" });
  return { ok: true, message: input.intent === "deactivate" ? "Ambassador deactivated." : "Ambassador activated." };
}

/** A code of the ambassador's flagged as leaked, as the Ambassador page shows it. */
export interface LeakedCodeView {
  code: string;
  flaggedAt: string;
  buyers: number;
  windowDays: number;
  /** The shop holds such codes' commissions for review. */
  held: boolean;
}

/** The ambassador's codes flagged as leaked (the app's own record; the service is not asked). */
export async function ambassadorLeaks(ctx: Pick<AdminContext, "db">, shop: string, email: string): Promise<LeakedCodeView[]> {
  const [leaks, settings] = await Promise.all([leakedCodesOf(ctx.db, shop, email), ctx.db.shop.findUnique({ where: { shop }, select: LEAK_HOLD_SELECT })]);
  const held = holdsLeakedCommissions(settings);
  return leaks.map((leak) => ({ code: leak.code, flaggedAt: leak.flaggedAt.toISOString(), buyers: leak.buyers, windowDays: leak.windowDays, held }));
}
