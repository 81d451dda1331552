import type { PrismaClient } from "@prisma/client";
import { compareMoney, tryParseMoney } from "../../platform/referral-api/money";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { shopCurrencyOf } from "./shopify-customers.server";

// The program's currency and the ceiling of store credit payouts, the
// merchant's settings on the Service events page.
//
// The service's payout-created event has an amount and no currency: the
// amount is in whatever currency the program pays in, which only the merchant
// knows. The app takes it to be the shop's currency until told otherwise,
// reading it from Shopify when it is first needed (the first payout, or the
// page while store credit payouts are on), and never converts: a payout in a
// shop whose currency differs waits for the merchant.
//
// The ceiling's default, 100.00 in the program's currency: a referral reward
// is most often a few tens, and a payout larger than that is rare enough for
// a person to look at it first, while a wrong one (cents read as units,
// points as money, a test) is money the customer can spend at once. Holding
// costs the merchant one click. In a currency of small units (JPY, KRW) it
// holds nearly every payout until the merchant sets a ceiling that fits:
// the safe side.

export const DEFAULT_PAYOUT_CEILING = "100.00";

// The total per ambassador: whoever holds the service's webhook secret (or a
// program set up wrong) could send many payouts each under the ceiling. Store
// credit payouts to one ambassador adding up to more than this in 30 days
// wait for the merchant. Its default, three ceilings, leaves room for a busy
// month of referral rewards and stops a stream of them.
export const DEFAULT_PAYOUT_PERIOD_TOTAL = "300.00";
export const PAYOUT_PERIOD_DAYS = 30;
/** No ceiling above this: a larger number is a typing slip. */
const MAX_CEILING = "1000000.00";

export interface PayoutSettings {
  storeCreditPayouts: boolean;
  /** Null until first needed (see above). */
  currency: string | null;
  ceiling: string;
  /** Store credit to one ambassador in PAYOUT_PERIOD_DAYS above this waits for the merchant. */
  periodTotal: string;
}

export async function readPayoutSettings(db: PrismaClient, shop: string): Promise<PayoutSettings> {
  const row = await db.shop.findUnique({ where: { shop }, select: { storeCreditPayouts: true, payoutCurrency: true, payoutCeiling: true, payoutPeriodTotal: true } });
  return {
    storeCreditPayouts: row?.storeCreditPayouts ?? false,
    currency: row?.payoutCurrency ?? null,
    ceiling: row?.payoutCeiling ?? DEFAULT_PAYOUT_CEILING,
    periodTotal: row?.payoutPeriodTotal ?? DEFAULT_PAYOUT_PERIOD_TOTAL,
  };
}

/**
 * The program's currency, recording the shop's currency as it when none is
 * set yet. A merchant's choice made meanwhile wins.
 */
export async function settlePayoutCurrency(db: PrismaClient, shop: string, shopCurrency: string): Promise<string> {
  await db.shop.updateMany({ where: { shop, payoutCurrency: null }, data: { payoutCurrency: shopCurrency } });
  const row = await db.shop.findUnique({ where: { shop }, select: { payoutCurrency: true } });
  return row?.payoutCurrency ?? shopCurrency;
}

/**
 * For the page, while store credit payouts are on and no currency is set: the
 * shop's currency read from Shopify (within `ms`, through the shop's offline
 * access) and recorded. Null when Shopify could not tell in time; the first
 * payout reads it then.
 */
export async function recordPayoutCurrency(db: PrismaClient, shop: string, adminForShop: AdminForShop, ms = 3_000): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  const read = (async () => {
    const access = await adminForShop(shop);
    return access.ok ? shopCurrencyOf(access.admin) : null;
  })().catch(() => null);
  try {
    const shopCurrency = await Promise.race([read, late]);
    return shopCurrency ? await settlePayoutCurrency(db, shop, shopCurrency) : null;
  } finally {
    clearTimeout(timer);
  }
}

const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

export type PayoutSettingsField = "payoutCurrency" | "payoutCeiling" | "payoutPeriodTotal";

/** The page's currency and ceiling fields, checked: an absent field keeps what is stored. */
export function parsePayoutSettingsForm(form: { payoutCurrency?: string; payoutCeiling?: string; payoutPeriodTotal?: string }):
  | { ok: true; change: { payoutCurrency?: string; payoutCeiling?: string; payoutPeriodTotal?: string } }
  | { ok: false; fieldErrors: Partial<Record<PayoutSettingsField, string>> } {
  const change: { payoutCurrency?: string; payoutCeiling?: string; payoutPeriodTotal?: string } = {};
  const fieldErrors: Partial<Record<PayoutSettingsField, string>> = {};
  if (form.payoutCurrency !== undefined) {
    const code = form.payoutCurrency.trim().toUpperCase();
    if (CURRENCIES.has(code)) change.payoutCurrency = code;
    else fieldErrors.payoutCurrency = "Enter the currency as its three-letter code, for example USD or EUR.";
  }
  for (const [field, example] of [["payoutCeiling", "100.00"], ["payoutPeriodTotal", "300.00"]] as const) {
    const given = form[field];
    if (given === undefined) continue;
    const text = given.trim().replace(/,/g, "");
    const amount = /^\d+(\.\d{1,3})?$/.test(text) ? tryParseMoney(text) : null;
    if (amount && compareMoney(amount, "0") > 0 && compareMoney(amount, MAX_CEILING) <= 0) change[field] = amount;
    else fieldErrors[field] = `Enter an amount above 0 and at most 1,000,000, for example ${example}.`;
  }
  return Object.keys(fieldErrors).length > 0 ? { ok: false, fieldErrors } : { ok: true, change };
}
