import { moneyFromCents, moneyToCents, type Money } from "../referral-api/money";
import { shopAmount, type OrderPayload } from "./order-payload";
import type { PipelineSettings } from "./pipeline-settings";
import type { ReferralEventParams } from "./referral-event";

/** The cart attributes the storefront embed writes; the order carries them as note_attributes. */
export const REFERRAL_CODE_ATTRIBUTE = "_referral_code";
export const REFERRAL_CAMPAIGN_ATTRIBUTE = "_referral_campaign";

/** What to send for one order: one event per campaign, the same transaction. */
export interface ReferralEvent {
  /** Empty when the shop has not chosen campaigns yet: the job resolves them when it runs. */
  campaignUids: string[];
  params: ReferralEventParams;
  /** Where the short code came from, for the activity page. */
  codeSource: "cart_attribute" | "landing_site" | null;
}

export type Attribution =
  | { kind: "record"; event: ReferralEvent }
  | { kind: "skip"; reason: string; event?: ReferralEvent };

function attribute(order: OrderPayload, name: string): string | undefined {
  const found = order.note_attributes?.find((a) => a.name === name);
  const value = found?.value == null ? "" : String(found.value).trim();
  return value === "" ? undefined : value;
}

function landingSiteParam(landingSite: string | null | undefined, names: string[]): string | undefined {
  if (!landingSite) return undefined;
  let query: URLSearchParams;
  try {
    query = new URL(landingSite, "https://shop.invalid").searchParams;
  } catch {
    return undefined;
  }
  for (const name of names) {
    const value = query.get(name)?.trim();
    if (value) return value;
  }
  return undefined;
}

/** The referrer's short code: the cart attribute first, then the landing page's query. Case is kept. */
export function findShortCode(order: OrderPayload, paramNames: string[]): Pick<ReferralEvent, "codeSource"> & { code?: string } {
  const fromCart = attribute(order, REFERRAL_CODE_ATTRIBUTE);
  if (fromCart) return { code: fromCart, codeSource: "cart_attribute" };
  const fromLanding = landingSiteParam(order.landing_site, paramNames);
  if (fromLanding) return { code: fromLanding, codeSource: "landing_site" };
  return { codeSource: null };
}

/**
 * The coupon sent as coupon_code. Rule: the first discount code as Shopify
 * lists it on the order (codes are applied in that order); blank codes are
 * passed over.
 */
export function findCouponCode(order: OrderPayload): string | undefined {
  for (const discount of order.discount_codes ?? []) {
    const code = discount.code?.trim();
    if (code) return code;
  }
  return undefined;
}

function lineItemTaxCents(order: OrderPayload): bigint {
  let cents = 0n;
  for (const item of order.line_items ?? []) {
    for (const tax of item.tax_lines ?? []) {
      const value = shopAmount(tax.price, tax.price_set);
      if (value) cents += moneyToCents(value);
    }
  }
  return cents;
}

/**
 * Revenue in the shop's currency, by the shop's basis. The default is the
 * subtotal after discounts, without shipping and taxes (taxes are taken out
 * of the subtotal when the shop's prices include them).
 */
export function orderRevenue(order: OrderPayload, basis: PipelineSettings["revenueBasis"]): Money | undefined {
  const pick = {
    subtotal_after_discounts: shopAmount(order.subtotal_price, order.subtotal_price_set),
    subtotal_before_discounts: shopAmount(order.total_line_items_price, order.total_line_items_price_set),
    total: shopAmount(order.total_price, order.total_price_set),
  }[basis];
  if (pick === undefined) return undefined;
  let cents = moneyToCents(pick);
  if (basis !== "total" && order.taxes_included) cents -= lineItemTaxCents(order);
  return moneyFromCents(cents < 0n ? 0n : cents);
}

function customerEmail(order: OrderPayload): string | undefined {
  for (const email of [order.email, order.contact_email, order.customer?.email]) {
    const trimmed = email?.trim();
    if (trimmed) return trimmed;
  }
  return undefined;
}

function chooseCampaigns(order: OrderPayload, settings: PipelineSettings): string[] {
  const fromCart = attribute(order, REFERRAL_CAMPAIGN_ATTRIBUTE);
  // A link names its campaign; when the shop tracks it, the order goes there alone.
  if (fromCart && settings.campaignUids.includes(fromCart)) return [fromCart];
  return settings.campaignUids;
}

const APPROVAL_PARAM: Record<PipelineSettings["approval"], boolean | undefined> = {
  campaign: undefined,
  pending: false,
  approved: true,
};

/** Turns an order into the event/record parameters, or a reason not to send it. */
export function attributeOrder(order: OrderPayload, settings: PipelineSettings): Attribution {
  const { code: shortCode, codeSource } = findShortCode(order, settings.codeParams);
  const couponCode = findCouponCode(order);
  const email = customerEmail(order);
  const customerId = order.customer?.id ?? undefined;
  const event: ReferralEvent = {
    campaignUids: chooseCampaigns(order, settings),
    codeSource,
    params: {
      email: email ?? "",
      shortCode,
      couponCode,
      revenue: orderRevenue(order, settings.revenueBasis),
      transactionUid: order.id,
      ipAddress: order.browser_ip ?? undefined,
      uid: customerId,
      firstName: order.customer?.first_name ?? order.billing_address?.first_name ?? undefined,
      lastName: order.customer?.last_name ?? order.billing_address?.last_name ?? undefined,
      eventData1: order.name ?? undefined,
      isApproved: APPROVAL_PARAM[settings.approval],
      ...(order.test ? { sandbox: true, eventData2: "test order" } : {}),
    },
  };
  if (order.test && settings.testOrders === "skip") {
    return { kind: "skip", reason: "Test order (the shop skips test orders)", event };
  }
  if (settings.scope === "with_code" && !shortCode && !couponCode) {
    return { kind: "skip", reason: "No referral code or coupon on the order", event };
  }
  if (!email) {
    return { kind: "skip", reason: "The order has no customer email, so the referral service cannot record it", event };
  }
  return { kind: "record", event };
}
