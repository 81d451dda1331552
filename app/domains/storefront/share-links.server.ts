import type { PrismaClient } from "@prisma/client";
import {
  isReferralApiError,
  type Ambassador,
  type CampaignLink,
  type GetAmbassadorParams,
  type Money,
  type ReferralApiError,
  type ReferralClient,
} from "../../platform/referral-api";
import type { ShopClient } from "../connection";
import { CustomerLookupError, type CustomerLookup } from "../../platform/shopify-admin/customer-lookup.server";
import type { NotEnrolledReason, ShareLink, ShareLinksAmbassador, ShareLinksAnswer } from "./share-links-contract";
import type { TtlCache } from "../../platform/cache/ttl-cache";
import { enqueueMissingAmbassadorCode } from "../offers";
import { enrolmentKey, queueFlowTrigger } from "../flow-triggers";
import { ambassadorEnrolled } from "../flow-triggers";
import { queueShareLinkSync } from "../customer-metafields";
import { linksWorthSharing, shareLinkValues } from "../customer-metafields";
import { commaList } from "../../platform/text/comma-list";

// The English text of each answer. The blocks show their own translation, chosen by
// the answer's status and reason (see share-links-contract.ts); these stay in the
// answer for extension versions already live.
export const MESSAGES = {
  notEnrolled: "You’re not part of the referral program yet.",
  noEmail: "Add an email address to your account to get referral links.",
  inactive: "Your referral account isn’t active.",
  unverifiedEmail: "Please confirm your email address to see your referral links.",
  unavailable: "The referral program isn’t available right now.",
  error: "Your referral links can’t be shown right now. Please try again in a moment.",
} as const;

const NOT_ENROLLED_MESSAGE: Record<NotEnrolledReason, string> = {
  not_member: MESSAGES.notEnrolled,
  no_email: MESSAGES.noEmail,
  inactive: MESSAGES.inactive,
  unverified_email: MESSAGES.unverifiedEmail,
};

function notEnrolled(reason: NotEnrolledReason): ShareLinksAnswer {
  return { status: "not_enrolled", reason, message: NOT_ENROLLED_MESSAGE[reason] };
}

export interface ShareLinksLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ShareLinksDeps {
  db: PrismaClient;
  clientForShop(shop: string): Promise<ShopClient>;
  /** Answers per shop and customer (a short time: they change when the customer earns). */
  answers: TtlCache<ShareLinksAnswer>;
  /** The company's point name per shop (it rarely changes). */
  pointNames: TtlCache<string | null>;
  logger: ShareLinksLogger;
  /** SHOPIFY_API_SECRET: keys the hash in an ambassador's enrolment trigger key. */
  appSecret: string;
  /** The clock that tells a just-enrolled ambassador (tests set it); the real time otherwise. */
  now?(): Date;
}

export interface ShareLinksQuery {
  shop: string;
  /** The numeric Shopify customer id, from a signed source only (or picked by the shop's own signed-in staff, at POS); null for a guest. */
  customerId: string | null;
  /** null when the shop has no offline session (the app is not installed). */
  lookupCustomer: CustomerLookup | null;
  /** Which surface asked, for the log line (and where a Flow enrolment says it happened). */
  surface: "app_proxy" | "customer_account" | "checkout" | "pos" | "headless";
  /** Staff enrol the customer at the counter (POS), whether or not the shop enrols customers automatically. */
  enrol?: boolean;
}

export const shareLinksCacheKey = (shop: string, customerId: string) => `${shop}|${customerId}`;

/** Worth keeping for a while: the same question gets the same answer until the customer earns. */
const cacheable = (answer: ShareLinksAnswer) => answer.status === "ok" || answer.status === "not_enrolled";

/**
 * The signed-in customer's share links: their email from the shop (Admin API),
 * then ambassador/get at the referral service, enrolling them when the shop
 * enrols customers automatically. Answers are cached per shop and customer.
 */
export async function loadShareLinks(deps: ShareLinksDeps, query: ShareLinksQuery): Promise<ShareLinksAnswer> {
  const { shop, customerId } = query;
  if (!customerId) return { status: "guest" };
  // Enrolling changes the answer: what was kept from before is not asked again.
  if (query.enrol) deps.answers.delete(shareLinksCacheKey(shop, customerId));
  return deps.answers.getOrLoad(
    shareLinksCacheKey(shop, customerId),
    async () => {
      const started = performance.now();
      const answer = await lookUp(deps, { ...query, customerId });
      deps.logger.info(
        { shop, customerId, surface: query.surface, status: answer.status, durationMs: Math.round(performance.now() - started) },
        "share links looked up",
      );
      return answer;
    },
    cacheable,
  );
}

async function lookUp(deps: ShareLinksDeps, query: ShareLinksQuery & { customerId: string }): Promise<ShareLinksAnswer> {
  const { shop, customerId, lookupCustomer } = query;
  const row = await deps.db.shop.findUnique({
    where: { shop },
    select: { uninstalledAt: true, autoEnrol: true, newAmbassadorGroup: true, campaignUids: true, flowTriggers: true, shareLinkMetafield: true },
  });
  if (!row || row.uninstalledAt) return { status: "unavailable", message: MESSAGES.unavailable };
  const connection = await deps.clientForShop(shop);
  if (!connection.ok) return { status: "unavailable", message: MESSAGES.unavailable };
  if (!lookupCustomer) {
    deps.logger.warn({ shop }, "share links: the shop has no offline session, so the customer cannot be looked up");
    return { status: "unavailable", message: MESSAGES.unavailable };
  }

  let customer;
  try {
    customer = await lookupCustomer(customerId);
  } catch (error) {
    if (!(error instanceof CustomerLookupError)) throw error;
    const detail = error.cause instanceof Error ? error.cause.message : error.message;
    deps.logger.warn({ shop, customerId, detail }, "share links: Admin API customer lookup failed");
    return { status: "error", message: MESSAGES.error };
  }
  if (!customer) return notEnrolled("not_member");
  if (!customer.email) return notEnrolled("no_email");

  const params: GetAmbassadorParams = { email: customer.email };
  // Anyone can open an account with an ambassador's email: an unverified one is shown the links only when the service names this customer by id, and is never enrolled.
  const enrols = customer.verifiedEmail && (row.autoEnrol || query.enrol === true);
  if (enrols) {
    // The same uid the order pipeline sends, so both name the customer alike.
    Object.assign(params, { autoCreate: true, uid: customerId, firstName: customer.firstName ?? undefined });
    const group = row.newAmbassadorGroup?.trim();
    if (group) params.addToGroupId = group;
  }

  const client = connection.client;
  const [ambassador, pointName] = await Promise.all([
    getAmbassador(client, params),
    companyPointName(deps, shop, client),
  ]);
  if (ambassador.kind === "not_found") return notEnrolled("not_member");
  if (ambassador.kind === "failed") {
    const { error } = ambassador;
    deps.logger.warn({ shop, customerId, kind: error.kind, errors: error.errors }, "share links: ambassador/get failed");
    return error.kind === "authentication"
      ? { status: "unavailable", message: MESSAGES.unavailable }
      : { status: "error", message: MESSAGES.error };
  }
  const found = ambassador.ambassador;
  if (!customer.verifiedEmail && found.uid !== customerId) return notEnrolled("unverified_email");
  // The customer's share link metafields follow what was just seen (a job, when they differ from what was written).
  if (row.shareLinkMetafield && found.email) await queueShareLinkSync(deps.db, shop, found.email, { reason: "seen", customerId, seen: shareLinkValues(found, commaList(row.campaignUids)) });
  if (found.status === "banned" || found.status === "unsubscribed") return notEnrolled("inactive");
  // A customer enrolled here has a share code the friend's offers may not hold yet.
  if (enrols && found.email) await enqueueMissingAmbassadorCode(deps.db, shop, found.email);
  if (enrols && row.flowTriggers && found.email && justCreated(found, deps.now?.() ?? new Date())) {
    const how = ENROLLED_HOW[query.surface];
    const shareLink = found.memorableUrl ?? shareLinksOf(found.campaignLinks, commaList(row.campaignUids))[0]?.url ?? null;
    await queueFlowTrigger(deps.db, shop, ambassadorEnrolled({ customerId, email: found.email, shareLink, how }), enrolmentKey(found.email, deps.appSecret));
  }
  return {
    status: "ok",
    ambassador: ambassadorSummary(found, pointName),
    links: shareLinksOf(found.campaignLinks, commaList(row.campaignUids)),
  };
}

const ENROLLED_HOW = { app_proxy: "storefront", customer_account: "storefront", checkout: "thank_you", pos: "pos", headless: "storefront" } as const;

/**
 * ambassador/get with auto-create does not say whether it created the
 * ambassador: one the service made in the last minutes was enrolled by this
 * look-up (or just before it, by the service's own webhook, whose trigger
 * has the same key).
 */
const JUST_CREATED_MS = 10 * 60 * 1000;
function justCreated(ambassador: Ambassador, now: Date): boolean {
  return ambassador.createdAt !== null && Math.abs(now.getTime() - ambassador.createdAt.getTime()) < JUST_CREATED_MS;
}

type AmbassadorOutcome =
  | { kind: "found"; ambassador: Ambassador }
  | { kind: "not_found" }
  | { kind: "failed"; error: ReferralApiError };

// The interface leaves the "no such ambassador" answer unspecified: a 404 or
// an error list saying so both mean "not enrolled".
const SAYS_MISSING = /n[o']?t exist|not found|no ambassador/i;

async function getAmbassador(client: ReferralClient, params: GetAmbassadorParams): Promise<AmbassadorOutcome> {
  try {
    return { kind: "found", ambassador: (await client.getAmbassador(params)).ambassador };
  } catch (error) {
    if (!isReferralApiError(error)) throw error;
    if (error.kind === "not_found") return { kind: "not_found" };
    if (error.kind === "invalid_request" && error.errors.some((text) => SAYS_MISSING.test(text))) return { kind: "not_found" };
    return { kind: "failed", error };
  }
}

/** The point name is decoration: without it the storefront says "points". */
async function companyPointName(deps: ShareLinksDeps, shop: string, client: ReferralClient): Promise<string | null> {
  try {
    return await deps.pointNames.getOrLoad(shop, async () => (await client.getCompany()).company.pointName);
  } catch (error) {
    deps.logger.warn({ shop, kind: isReferralApiError(error) ? error.kind : "unknown" }, "share links: company/get failed");
    return null;
  }
}

/** "150.00" points read as "150"; fractions stay. */
function pointsText(value: Money | null): string {
  if (value === null) return "0";
  return value.replace(/\.0+$/, "");
}

function ambassadorSummary(ambassador: Ambassador, pointName: string | null): ShareLinksAmbassador {
  return {
    firstName: ambassador.firstName,
    email: ambassador.email,
    balanceMoney: ambassador.balanceMoney ?? "0.00",
    balancePoints: pointsText(ambassador.balancePoints),
    moneyPaid: ambassador.moneyPaid ?? "0.00",
    pointsPaid: pointsText(ambassador.pointsPaid),
    uniqueReferrals: ambassador.uniqueReferrals ?? 0,
    pointName: pointName?.trim() || null,
  };
}

/** The links worth showing (linksWorthSharing: the same ones the customer's share link metafield is chosen from). */
export function shareLinksOf(links: CampaignLink[], tracked: string[]): ShareLink[] {
  return linksWorthSharing(links, tracked).map((link) => ({
    campaignUid: link.campaignUid,
    campaignName: link.campaignName ?? "",
    description: link.campaignDescription ?? "",
    url: link.url,
    socialEnabled: link.socialEnabled === true,
    totalMoneyEarned: link.totalMoneyEarned ?? "0.00",
    totalPointsEarned: pointsText(link.totalPointsEarned),
  }));
}
