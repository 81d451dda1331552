import { buyerIdentity } from "./buyer-identity";
import { moneyFromCents, moneyToCents, type Money } from "../../platform/referral-api/money";
import type { StoredEvent } from "./job-kinds";
import { shopAmount, type OrderPayload } from "./order-payload";
import type { PipelineSettings } from "./pipeline-settings";
import { campaignsFor, referralGate, type OrderSignals } from "./referral-decision";
import { mayBeSubscription, readRenewalRule, renewalSignal } from "./repeat-purchase";

// What the intake reads of an order: its referral signals, its buyer, its
// revenue and the event/record parameters, stored with the order's job. It
// picks no winner: the job does (referral-decision.ts).

/** The cart attributes the storefront embed writes; the order carries them as note_attributes. */
export const REFERRAL_CODE_ATTRIBUTE = "_referral_code";
export const REFERRAL_CAMPAIGN_ATTRIBUTE = "_referral_campaign";

/**
 * What to send for one order (one event per campaign, the same transaction),
 * as the intake stores it: `campaignUids` is empty when the shop has not
 * chosen campaigns yet (the job resolves them when it runs); `signals` holds
 * every referral signal on the order, for the job to choose from and to
 * explain; `buyer` what the referral guard compares with the referrer;
 * `checkoutToken` what a web pixel signal is joined on.
 */
export type ReferralEvent = StoredEvent & { signals: OrderSignals; buyer: BuyerFacts };

export interface BuyerFacts {
  phone?: string;
  /** The shipping address, normalised (see addressKey). */
  address?: string;
  /** Shopify's count of the customer's orders, when the payload carries it. */
  ordersCount?: number;
}

export type OrderReading =
  | { kind: "record"; event: ReferralEvent }
  | { kind: "skip" | "not_referred" | "awaiting_signal"; reason: string; event?: ReferralEvent };

function attribute(order: OrderPayload, name: string): string | undefined {
  const found = order.note_attributes?.find((a) => a.name === name);
  const value = found?.value == null ? "" : String(found.value).trim();
  return value === "" ? undefined : value;
}

/**
 * Anyone can set cart attributes (/cart/update.js) and landing page queries,
 * so a code is taken only in the shape codes have: letters, digits, "-", "_"
 * and ".", at most 64 characters. Anything else is no code at all.
 */
export const CODE_SHAPE = /^[A-Za-z0-9._-]{1,64}$/;
export const CAMPAIGN_SHAPE = /^[A-Za-z0-9_-]{1,32}$/;

const shaped = (value: string | undefined, shape: RegExp) => (value !== undefined && shape.test(value) ? value : undefined);
export const cartCode = (order: OrderPayload) => shaped(attribute(order, REFERRAL_CODE_ATTRIBUTE), CODE_SHAPE);
const landingCode = (landingSite: string | null | undefined, names: string[]) => shaped(landingSiteParam(landingSite, names), CODE_SHAPE);

/** The landing page's value of the first of `names` it carries; names match whatever their case, values keep theirs. */
export function landingSiteParam(landingSite: string | null | undefined, names: string[]): string | undefined {
  if (!landingSite) return undefined;
  let query: URLSearchParams;
  try {
    query = new URL(landingSite, "https://shop.invalid").searchParams;
  } catch {
    return undefined;
  }
  const wanted = names.map((name) => name.toLowerCase());
  const found = new Map<string, string>();
  for (const [name, value] of query) {
    const key = name.toLowerCase();
    const trimmed = value.trim();
    if (trimmed && !found.has(key) && wanted.includes(key)) found.set(key, trimmed);
  }
  for (const name of wanted) if (found.has(name)) return found.get(name);
  return undefined;
}

/** The order's referral signals: the link codes of the cart and the landing page (case kept), and its discount codes. */
export function orderSignals(order: OrderPayload, paramNames: string[]): OrderSignals {
  const cartAttribute = cartCode(order);
  const landingPage = landingCode(order.landing_site, paramNames);
  return { ...(cartAttribute ? { cartAttribute } : {}), ...(landingPage ? { landingPage } : {}), discountCodes: findDiscountCodes(order) };
}

/** The order's discount codes in Shopify's order (the order they were applied in); blanks and repeats (in any case) left out. */
export function findDiscountCodes(order: OrderPayload): string[] {
  const codes: string[] = [];
  const seen = new Set<string>();
  for (const discount of order.discount_codes ?? []) {
    const code = discount.code?.trim();
    if (!code || seen.has(code.toUpperCase())) continue;
    seen.add(code.toUpperCase());
    codes.push(code);
  }
  return codes;
}

/** An address as the guard compares it: street and zip, lower case, single spaces; undefined without a street. */
export function addressKey(address: { address1?: string | null; address2?: string | null; zip?: string | null } | null | undefined): string | undefined {
  const street = [address?.address1, address?.address2].filter(Boolean).join(" ");
  if (!street.trim()) return undefined;
  return [street, address?.zip ?? ""]
    .map((part) => part.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim())
    .join("|");
}

function buyerFacts(order: OrderPayload): BuyerFacts {
  const phone = order.shipping_address?.phone ?? order.phone ?? order.customer?.phone ?? undefined;
  const ordersCount = order.customer?.orders_count ?? undefined;
  return {
    ...(phone ? { phone } : {}),
    ...(addressKey(order.shipping_address) ? { address: addressKey(order.shipping_address) } : {}),
    ...(ordersCount !== undefined ? { ordersCount } : {}),
  };
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


const APPROVAL_PARAM: Record<PipelineSettings["approval"], boolean | undefined> = {
  campaign: undefined,
  pending: false,
  approved: true,
};

/** What marks the order a subscription renewal, or that its line items' selling plan may. */
function renewalFacts(order: OrderPayload, settings: PipelineSettings): { renewal?: string; maySubscribe?: true } {
  const renewal = renewalSignal(order, readRenewalRule(settings.renewalRule));
  if (renewal) return { renewal };
  return mayBeSubscription(order) ? { maySubscribe: true } : {};
}

/** What the intake knows of the web pixel for an order: its signal, found stored already, or whether one may still come. */
export interface PixelAtIntake {
  pixel?: { code: string; campaign: string | null } | null;
  signalMayCome?: boolean;
  /** The app has recorded the customer as referred (ReferredCustomer): an order without a code is sent for its recurring reward. */
  referred?: boolean;
}

/** Turns an order into the event the job decides and sends, or a reason not to send it (referralGate's, or a skip rule's). */
export function readOrderEvent(order: OrderPayload, settings: PipelineSettings, { pixel = null, signalMayCome = false, referred = false }: PixelAtIntake = {}): OrderReading {
  const signals: OrderSignals = { ...orderSignals(order, settings.codeParams), ...(pixel ? { pixel } : {}) };
  const buyer = buyerIdentity(order);
  const email = buyer.kind === "anonymous" ? undefined : buyer.email;
  const customerId = order.customer?.id ?? undefined;
  const event: ReferralEvent = {
    campaignUids: campaignsFor(settings.campaignUids, shaped(attribute(order, REFERRAL_CAMPAIGN_ATTRIBUTE), CAMPAIGN_SHAPE)),
    codeSource: null,
    signals,
    buyer: buyerFacts(order),
    ...(order.checkout_token ? { checkoutToken: order.checkout_token } : {}),
    ...renewalFacts(order, settings),
    params: {
      email: email ?? "",
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
  const gate = referralGate(signals, pixel?.code ?? null, { sendWithoutCode: settings.scope === "all_orders" || referred, signalMayCome });
  if (gate.next === "await_signal") return { kind: "awaiting_signal", reason: gate.reason, event };
  if (gate.next === "not_referred") return { kind: "not_referred", reason: gate.reason, event };
  if (buyer.kind === "anonymous") return { kind: "skip", reason: buyer.reason, event };
  return { kind: "record", event };
}
