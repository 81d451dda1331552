// Asks the app's backend for the signed-in customer's share links and reads the
// answer defensively. No framework and no Shopify globals here, so the app's own
// test suite runs this file against the real backend route.

export interface AccountLink {
  campaignName: string;
  description: string;
  url: string;
  socialEnabled: boolean;
  totalMoneyEarned: string;
  totalPointsEarned: string;
}

export interface AccountAmbassador {
  balanceMoney: string;
  balancePoints: string;
  moneyPaid: string;
  pointsPaid: string;
  uniqueReferrals: number;
  pointName: string | null;
}

export type LinksState =
  | { kind: "loading" }
  | { kind: "ok"; ambassador: AccountAmbassador; links: AccountLink[] }
  /** Nothing to show: the customer is not signed in. */
  | { kind: "guest" }
  /** reason: a key of the blocks' locale files (see NOT_ENROLLED_TEXT). */
  | { kind: "not_enrolled"; reason: NotEnrolledReason }
  | { kind: "unavailable" }
  | { kind: "error" };

export interface FetchShareLinksOptions {
  /** The app's origin, e.g. https://referral-bridge.example (the app's application_url). */
  appUrl: string;
  /** shopify.sessionToken.get */
  getToken(): Promise<string>;
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** The app route to ask; the customer account route unless another extension names its own. */
  path?: string;
}

export const LINKS_PATH = "/api/customer-account/links";

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback = ""): string =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;
/** Why the backend has no links for a signed-in customer (app/domains/storefront/share-links-contract.ts). */
export type NotEnrolledReason = "not_member" | "no_email" | "inactive" | "unverified_email";

/** The locale key each extension shows for a reason; an answer without a known reason reads as not a member. */
export const NOT_ENROLLED_TEXT: Record<NotEnrolledReason, "notEnrolled" | "noEmail" | "inactive" | "unverifiedEmail"> = {
  not_member: "notEnrolled",
  no_email: "noEmail",
  inactive: "inactive",
  unverified_email: "unverifiedEmail",
};

const reasonOf = (body: Raw): NotEnrolledReason =>
  typeof body.reason === "string" && Object.prototype.hasOwnProperty.call(NOT_ENROLLED_TEXT, body.reason) ? (body.reason as NotEnrolledReason) : "not_member";

function readLink(raw: unknown): AccountLink | null {
  if (!isObject(raw)) return null;
  const url = text(raw.url).trim();
  // Only web links are shown, whatever the service sends.
  if (!/^https?:\/\/\S+$/i.test(url)) return null;
  return {
    campaignName: text(raw.campaignName),
    description: text(raw.description),
    url,
    socialEnabled: raw.socialEnabled === true,
    totalMoneyEarned: text(raw.totalMoneyEarned, "0.00"),
    totalPointsEarned: text(raw.totalPointsEarned, "0"),
  };
}

function readAmbassador(raw: unknown): AccountAmbassador {
  const a = isObject(raw) ? raw : {};
  const referrals = Number(a.uniqueReferrals);
  return {
    balanceMoney: text(a.balanceMoney, "0.00"),
    balancePoints: text(a.balancePoints, "0"),
    moneyPaid: text(a.moneyPaid, "0.00"),
    pointsPaid: text(a.pointsPaid, "0"),
    uniqueReferrals: Number.isFinite(referrals) ? referrals : 0,
    pointName: typeof a.pointName === "string" && a.pointName.trim() ? a.pointName : null,
  };
}

/** Reads one answer of the backend; anything it does not understand is an error. */
export function readLinksAnswer(status: number, body: unknown): LinksState {
  if (status < 200 || status >= 300 || !isObject(body)) return { kind: "error" };
  switch (body.status) {
    case "ok":
      return {
        kind: "ok",
        ambassador: readAmbassador(body.ambassador),
        links: (Array.isArray(body.links) ? body.links : []).map(readLink).filter((link): link is AccountLink => link !== null),
      };
    case "guest":
      return { kind: "guest" };
    case "not_enrolled":
      return { kind: "not_enrolled", reason: reasonOf(body) };
    case "unavailable":
      return { kind: "unavailable" };
    default:
      return { kind: "error" };
  }
}

/** One request with a fresh session token; never throws. */
export async function fetchShareLinks(options: FetchShareLinksOptions): Promise<LinksState> {
  if (!options.appUrl) return { kind: "error" };
  try {
    const token = await options.getToken();
    const response = await options.fetch(`${options.appUrl.replace(/\/+$/, "")}${options.path ?? LINKS_PATH}`, {
      method: "GET",
      headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
    });
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return readLinksAnswer(response.status, body);
  } catch {
    return { kind: "error" };
  }
}
