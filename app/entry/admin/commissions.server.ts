import { z } from "zod";
import {
  decodeRewardType,
  isReferralApiError,
  type Campaign,
  type Commission,
  type CommissionStatus,
  type ListCommissionsFilter,
  type ListCommissionsParams,
  type ReferralClient,
} from "../../platform/referral-api";
import { commissionsOfOrder, decide, decisionRow, readCommissionEntry, type DecisionRow } from "../../domains/commissions";
import { findOrderRecord, orderReferrers } from "../../domains/referrals/order-records.server";
import { holdsLeakedCommissions, LEAK_HOLD_SELECT, leaksOfOrders, reviewApprovalDates } from "../../domains/referrals";
import { COMMISSION_STATUSES } from "../../domains/commissions/commission-status";
import type { AdminContext } from "./admin-context";
import { fieldErrorsOf, formFields } from "./form-data";
import { shopifyOrderUrl } from "./order-links";
import { dayAfter, isoDate, pageNumber, parseQueryFields } from "./query-fields";
import { describeServiceError } from "./service-errors.server";

const only = z.enum(["only", "exclude"], { message: "Choose only or exclude." });

export const commissionFilterShape = {
  status: z.enum(COMMISSION_STATUSES, { message: "Choose pending, approved or denied." }),
  sandbox: only,
  welcome: only,
  from: isoDate,
  to: isoDate,
  email: z.email("Enter the ambassador's full email address."),
  order: z.string().regex(/^[\w-]{1,64}$/, "This order id isn't valid."),
};

export interface CommissionRow {
  uid: string;
  createdAt: string | null;
  status: CommissionStatus | null;
  ambassadorName: string | null;
  ambassadorEmail: string | null;
  customerEmail: string | null;
  campaignUid: string | null;
  campaignName: string | null;
  revenue: string | null;
  amount: string | null;
  /** From the campaign's rewards; money when unknown. */
  amountUnit: "money" | "points";
  sandbox: boolean;
  welcomeBonus: boolean;
  transactionId: string | null;
  fraud: { status: string | null; score: number | null; reasons: string[] } | null;
  /** What the app's referral guard flagged, from event_data3 ("Flagged: rule, rule"). */
  guardFlag: string | null;
  /** Set when the transaction is one of this shop's orders. */
  order: { id: string; name: string | null; url: string } | null;
  /** A pending commission the shop's review window approves: when (ISO). */
  approvesOn: string | null;
  /** The order was credited by a code flagged as leaked (decision 036): the code, when (ISO), and why it is held (null: not held). */
  codeLeaked: { code: string; flaggedAt: string; held: string | null } | null;
}

type ServiceRow = Omit<CommissionRow, "order" | "approvesOn" | "codeLeaked">;

function rowOf(c: Commission): ServiceRow {
  const name = [c.affiliateFirstName, c.affiliateLastName].filter(Boolean).join(" ");
  return {
    uid: c.commissionUid,
    createdAt: c.createdAt?.toISOString() ?? null,
    status: c.status,
    ambassadorName: name || null,
    ambassadorEmail: c.affiliateEmail,
    customerEmail: c.remoteCustomerEmail,
    campaignUid: c.campaignUid,
    campaignName: null,
    revenue: c.revenueAmount,
    amount: c.commissionAmount,
    amountUnit: "money",
    sandbox: c.isSandbox ?? false,
    welcomeBonus: c.isWelcomeBonus ?? false,
    transactionId: c.transactionId,
    fraud: c.fraud ? { status: c.fraud.status, score: c.fraud.score, reasons: c.fraud.reasons } : null,
    guardFlag: c.eventData3?.startsWith("Flagged:") ? c.eventData3 : null,
  };
}

/** Links each commission whose transaction is one of this shop's orders (and only this shop's). */
async function withOrderLinks(
  ctx: Pick<AdminContext, "db">,
  shop: string,
  rows: ServiceRow[]
): Promise<CommissionRow[]> {
  const ids = [...new Set(rows.map((r) => r.transactionId).filter((id): id is string => Boolean(id)))];
  const pendingIds = [...new Set(rows.filter((r) => r.status === "pending" && r.transactionId).map((r) => r.transactionId!))];
  const [records, approvals, settings] = await Promise.all([
    ids.length
      ? ctx.db.orderRecord.findMany({ where: { shop, orderId: { in: ids } }, select: { orderId: true, orderName: true, explanation: true, placedAt: true, createdAt: true } })
      : [],
    reviewApprovalDates(ctx.db, shop, pendingIds),
    ctx.db.shop.findUnique({ where: { shop }, select: LEAK_HOLD_SELECT }),
  ]);
  const leaks = await leaksOfOrders(ctx.db, shop, records, holdsLeakedCommissions(settings));
  const byId = new Map(records.map((r) => [r.orderId, r]));
  return rows.map((row) => {
    const record = row.transactionId ? byId.get(row.transactionId) : undefined;
    const leak = record ? leaks.get(record.orderId) : undefined;
    // A held commission waits for the merchant: the window's end approves nothing.
    const held = row.status === "pending" && leak?.held ? leak.held : null;
    const approvesOn = row.status === "pending" && record && !held ? approvals.get(record.orderId) : undefined;
    return {
      ...row,
      order: record ? { id: record.orderId, name: record.orderName, url: shopifyOrderUrl(shop, record.orderId) } : null,
      approvesOn: approvesOn?.toISOString() ?? null,
      codeLeaked: leak ? { code: leak.code, flaggedAt: leak.flaggedAt.toISOString(), held } : null,
    };
  });
}

export type CommissionFilters = ReturnType<typeof parseCommissionQuery>;

export function parseCommissionQuery(params: URLSearchParams) {
  const { values, errors, raw } = parseQueryFields(commissionFilterShape, params);
  return { filters: values, errors, raw, page: pageNumber.parse(params.get("page") ?? 1) };
}

const flag = (v: "only" | "exclude" | undefined) => (v === undefined ? undefined : v === "only");

/** The merchant's filters as commission/all's (the order filter aside). */
export function commissionListFilter(filters: CommissionFilters["filters"]): ListCommissionsFilter {
  return {
    status: filters.status,
    sandbox: flag(filters.sandbox),
    isWelcomeBonus: flag(filters.welcome),
    email: filters.email,
    createdAfter: filters.from,
    createdBefore: filters.to ? dayAfter(filters.to) : undefined,
  };
}

/**
 * Rows on a page of the list. The service pages by 100; the list shows a
 * quarter of one of its pages at a time, so that selecting a whole page stays
 * within INP's 200 ms on a slow laptop (100 rows took about 370 ms at 4× CPU).
 */
export const COMMISSIONS_PER_PAGE = 25;
const SERVICE_PAGE_SIZE = 100;

/**
 * One page (COMMISSIONS_PER_PAGE) of commission/all with the merchant's
 * filters; or, with an `order` filter, every commission of that order of
 * this shop.
 */
export async function listCommissionsPage(
  ctx: Pick<AdminContext, "db">,
  shop: string,
  client: ReferralClient,
  query: CommissionFilters
) {
  const [company, page] = await Promise.all([
    // Names only make the list easier to read; without them it shows the uids.
    client.getCompany().catch((error: unknown) => {
      if (isReferralApiError(error)) return null;
      throw error;
    }),
    commissionsPage(ctx, shop, client, query),
  ]);
  const campaigns = new Map((company?.campaigns ?? []).map((c) => [c.campaignUid, c]));
  return {
    ...page,
    perPage: COMMISSIONS_PER_PAGE,
    pointName: company?.company.pointName ?? "points",
    rows: page.rows.map((row) => {
      const campaign = row.campaignUid ? campaigns.get(row.campaignUid) : undefined;
      return {
        ...row,
        campaignName: campaign?.campaignName ?? null,
        amountUnit: campaign ? rewardUnit(campaign) : row.amountUnit,
      };
    }),
  };
}

/** A campaign whose rewards are all in points pays its commissions in points. */
function rewardUnit(campaign: Campaign): "money" | "points" {
  const units = [campaign.initialReward, campaign.recurringReward]
    .filter((r): r is NonNullable<typeof r> => r !== null)
    .map((r) => decodeRewardType(r.typeCode).unit)
    .filter((unit) => unit !== "none");
  return units.length > 0 && units.every((unit) => unit === "points") ? "points" : "money";
}

async function commissionsPage(ctx: Pick<AdminContext, "db">, shop: string, client: ReferralClient, query: CommissionFilters) {
  const { filters, page } = query;
  if (filters.order) {
    const record = await findOrderRecord(ctx.db, shop, filters.order);
    const found = record ? await commissionsOfOrder(client, { orderId: record.orderId, referrers: orderReferrers(record) }) : [];
    return {
      rows: await withOrderLinks(ctx, shop, found.map(rowOf)),
      page: 1,
      hasMore: false,
      orderFilter: { id: filters.order, name: record?.orderName ?? null, known: Boolean(record) },
    };
  }
  const { servicePage, from } = servicePageOf(page);
  const params: ListCommissionsParams = { page: servicePage, ...commissionListFilter(filters) };
  const result = await client.listCommissions(params);
  const items = result.items.slice(from, from + COMMISSIONS_PER_PAGE);
  return {
    rows: await withOrderLinks(ctx, shop, items.map(rowOf)),
    page,
    hasMore: from + COMMISSIONS_PER_PAGE < result.items.length || result.hasMore,
    orderFilter: null,
  };
}

/** Where the list's page `page` lies in the service's pages: which page, and the first row of it. */
export function servicePageOf(page: number): { servicePage: number; from: number } {
  const first = (page - 1) * COMMISSIONS_PER_PAGE;
  return { servicePage: Math.floor(first / SERVICE_PAGE_SIZE) + 1, from: first % SERVICE_PAGE_SIZE };
}

/** Each selected commission as "uid:order:campaign" (commissionEntry; "uid" and "uid:order" from older pages). */
export const commissionDecisionSchema = z.object({
  decision: z.enum(["approve", "deny"], { message: "Choose approve or deny." }),
  commissions: z
    .array(z.string().regex(/^\d{1,20}(:[\w-]{0,64}(:[\w-]{0,64})?)?$/, "A selected commission isn't valid."))
    .min(1, "Select at least one pending commission.")
    .max(100, "Select at most 100 commissions at a time."),
});

export type DecisionRowResult = Omit<DecisionRow, "skipped">;

export type DecisionResult =
  | { ok: false; fieldErrors: Record<string, string> }
  | { ok: true; decision: "approve" | "deny"; results: DecisionRowResult[]; succeeded: number; failed: number };

/**
 * Approves or denies one selected commission through its owner (decide).
 * Refused credentials throw; any other refusal is the row's, in the page's
 * words. A commission that is no longer pending is `skipped`.
 */
export async function decideCommission(
  ctx: Pick<AdminContext, "db">,
  shop: string,
  client: ReferralClient,
  entry: string,
  decision: "approve" | "deny"
): Promise<DecisionRow> {
  const commission = readCommissionEntry(entry);
  const state = decision === "approve" ? "approved" : "denied";
  const result = await decide({ db: ctx.db, client }, { shop, service: "ask", state, by: "merchant", commission });
  if (!result.ok && result.refused === "service" && result.error.kind === "authentication") throw result.error;
  return decisionRow(commission.commissionUid, state, result, (error) => describeServiceError(error).message);
}

/**
 * Approves or denies pending commissions one by one and says what happened
 * to each. Refused credentials stop the whole batch.
 */
export async function decideCommissions(
  ctx: Pick<AdminContext, "db" | "logger">,
  shop: string,
  client: ReferralClient,
  form: FormData
): Promise<DecisionResult> {
  const parsed = commissionDecisionSchema.safeParse(formFields(form, ["commissions"]));
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrorsOf(parsed.error.issues) };
  const { decision } = parsed.data;
  const results: DecisionRowResult[] = [];
  for (const entry of new Set(parsed.data.commissions)) {
    const { uid, ok, message } = await decideCommission(ctx, shop, client, entry, decision);
    results.push({ uid, ok, message });
  }
  const succeeded = results.filter((r) => r.ok).length;
  ctx.logger?.info({ shop, decision, succeeded, failed: results.length - succeeded }, "commissions decided by the merchant");
  return { ok: true, decision, results, succeeded, failed: results.length - succeeded };
}
