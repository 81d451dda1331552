import type { PrismaClient } from "@prisma/client";
import { isReferralApiError, type ReferralClient } from "../../platform/referral-api";
import type { ShopClient } from "../connection";
import { findOfferCode, shareCodeOfLink } from "../offers";
import { CODE_SHAPE, REFERRAL_CAMPAIGN_ATTRIBUTE, REFERRAL_CODE_ATTRIBUTE } from "./order-event";
import { commaList } from "../../platform/text/comma-list";
import { customerKeys } from "./repeat-purchase";

// A referral code given at the counter (Shopify POS): typed, scanned (a QR
// code of a share link counts), or found from the referrer's email. The
// device is never trusted: the code is checked here, with the referral
// service, and the answer tells the POS extension what to write on the cart
// (the same cart attribute the theme embed writes, so the order carries it
// like an online one) and which friend's offer code to apply.

export type CounterCodeAnswer =
  | {
      status: "ok";
      code: string;
      referrer: { firstName: string | null; lastName: string | null };
      campaignName: string | null;
      /** The friend's offer code to apply to the cart; null when the shop has none for this code. */
      offerCode: string | null;
      /** What the extension adds to the cart's properties (they become the order's note attributes). */
      cartProperties: Record<string, string>;
    }
  /** Not a referrer's code (or their account is off): nothing goes on the cart. */
  | { status: "unknown"; message: string }
  /** Neither a code, a share link nor an email. */
  | { status: "invalid"; message: string }
  | { status: "unavailable"; message: string }
  | { status: "error"; message: string };

export const COUNTER_MESSAGES = {
  invalid: "Enter a referral code, scan a share link's QR code, or enter the referrer's email.",
  unknownCode: "This code isn't a referral code of this store's program.",
  inactive: "This referral code can't be used right now (its campaign or its owner isn't active).",
  unknownEmail: "No ambassador has this email address.",
  noReferrer: "No earlier order of this customer was referred.",
  noLink: "This ambassador has no share link in the store's campaigns.",
  unavailable: "The referral program isn't connected for this store.",
  error: "The referral service can't be reached right now. Please try again in a moment.",
} as const;

export interface CounterCodeDeps {
  db: PrismaClient;
  clientForShop(shop: string): Promise<ShopClient>;
}

type Parsed = { kind: "code"; code: string } | { kind: "email"; email: string } | { kind: "invalid" };

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What was typed or scanned: a share link (its code), an email, or a bare code in the shape codes have. */
export function parseCounterInput(input: string): Parsed {
  const value = input.trim();
  if (/^https?:\/\//i.test(value)) {
    const code = shareCodeOfLink(value);
    return code && CODE_SHAPE.test(code) ? { kind: "code", code } : { kind: "invalid" };
  }
  if (EMAIL_SHAPE.test(value) && value.length <= 254) return { kind: "email", email: value };
  return CODE_SHAPE.test(value) ? { kind: "code", code: value } : { kind: "invalid" };
}

const failed = (status: "unknown" | "invalid" | "unavailable" | "error", message: string): CounterCodeAnswer => ({ status, message });

/** Checks what staff entered for the shop (the session token's, never the device's word) and says what to put on the cart. */
export async function checkCounterCode(deps: CounterCodeDeps, shop: string, input: string): Promise<CounterCodeAnswer> {
  const parsed = parseCounterInput(input);
  if (parsed.kind === "invalid") return failed("invalid", COUNTER_MESSAGES.invalid);
  const connection = await deps.clientForShop(shop);
  if (!connection.ok) return failed("unavailable", COUNTER_MESSAGES.unavailable);
  try {
    const code = parsed.kind === "code" ? parsed.code : await codeOfAmbassador(deps, connection.client, shop, parsed.email);
    if (typeof code !== "string") return code;
    return await answerForCode(deps, connection.client, shop, code);
  } catch (error) {
    if (isReferralApiError(error)) return failed("error", COUNTER_MESSAGES.error);
    throw error;
  }
}

async function answerForCode(deps: CounterCodeDeps, client: ReferralClient, shop: string, code: string): Promise<CounterCodeAnswer> {
  let found;
  try {
    found = await client.getShortCode({ shortCode: code });
  } catch (error) {
    if (isReferralApiError(error) && error.kind === "not_found") return failed("unknown", COUNTER_MESSAGES.unknownCode);
    throw error;
  }
  if (!found.email) return failed("unknown", COUNTER_MESSAGES.unknownCode);
  if (found.valid === false || found.status === "banned" || found.status === "unsubscribed") return failed("unknown", COUNTER_MESSAGES.inactive);
  const offer = await findOfferCode(deps.db, shop, [code]);
  return {
    status: "ok",
    code,
    referrer: { firstName: found.firstName, lastName: found.lastName },
    campaignName: found.campaignName,
    offerCode: offer?.code ?? null,
    cartProperties: {
      [REFERRAL_CODE_ATTRIBUTE]: code,
      ...(found.campaignUid ? { [REFERRAL_CAMPAIGN_ATTRIBUTE]: found.campaignUid } : {}),
    },
  };
}

/**
 * Who referred the cart's customer: their first referrer in this shop
 * (ReferredCustomer, the earliest campaign they were referred in), as the
 * link code of the order that referred them, else as the referrer's own link
 * (a coupon referred them); checked again at the service (the referrer may
 * have left the program since).
 */
export async function checkCustomerReferrer(deps: CounterCodeDeps, shop: string, customerId: string): Promise<CounterCodeAnswer> {
  const first = await deps.db.referredCustomer.findFirst({
    where: { shop, customerKey: { in: customerKeys(customerId, null) } },
    orderBy: { referredAt: "asc" },
    select: { orderId: true, referrerEmail: true },
  });
  if (!first) return failed("unknown", COUNTER_MESSAGES.noReferrer);
  const order = await deps.db.orderRecord.findUnique({ where: { shop_orderId: { shop, orderId: first.orderId } }, select: { shortCode: true } });
  const input = order?.shortCode ?? first.referrerEmail;
  return input ? checkCounterCode(deps, shop, input) : failed("unknown", COUNTER_MESSAGES.noReferrer);
}

/** The share code of the ambassador with this email, in the first of the shop's campaigns they have a link in. */
async function codeOfAmbassador(deps: CounterCodeDeps, client: ReferralClient, shop: string, email: string): Promise<string | CounterCodeAnswer> {
  let ambassador;
  try {
    ({ ambassador } = await client.getAmbassador({ email }));
  } catch (error) {
    if (isReferralApiError(error) && error.kind === "not_found") return failed("unknown", COUNTER_MESSAGES.unknownEmail);
    throw error;
  }
  const row = await deps.db.shop.findUnique({ where: { shop }, select: { campaignUids: true } });
  const tracked = commaList(row?.campaignUids);
  const links = ambassador.campaignLinks.filter((link) => tracked.length === 0 || (link.campaignUid !== null && tracked.includes(link.campaignUid)));
  for (const link of links) {
    const code = shareCodeOfLink(link.url);
    if (code && CODE_SHAPE.test(code)) return code;
  }
  return failed("unknown", COUNTER_MESSAGES.noLink);
}
