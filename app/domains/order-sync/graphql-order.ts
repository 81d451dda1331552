import type { OrderSource, OrderWebhook } from "../referrals";
import type { GraphqlLineItem, GraphqlMoney, GraphqlOrder, GraphqlRefund } from "./order-query";

// An order as the Admin GraphQL API gives it, turned into what the order
// webhooks deliver (the REST shape order-payload.ts reads), so that
// reconciliation and the backfill go through the very intake webhooks go
// through: same reader, same attribution, same idempotency keys (the
// numeric order id, and order id + refund id).

/** A GraphQL answer the app cannot turn into a webhook payload (a gid of the wrong type, a missing field). */
export class GraphqlOrderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GraphqlOrderError";
  }
}

/**
 * The numeric id of a gid, digit for digit ("gid://shopify/Order/5640000000001"
 * → "5640000000001"): Shopify's ids pass 2^53, so never through a Number.
 */
export function numericId(gid: string, type: string): string {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/([0-9]{1,20})(\?.*)?$/.exec(gid);
  if (!match || match[1] !== type) throw new GraphqlOrderError(`expected a ${type} gid, received ${JSON.stringify(gid).slice(0, 60)}`);
  return match[2]!;
}

const moneySet = (money: GraphqlMoney | null | undefined) => (money ? { shop_money: { amount: money.shopMoney.amount } } : null);

function sumMoney(amounts: string[]): string {
  let cents = 0n;
  for (const amount of amounts) {
    const [whole = "0", fraction = ""] = amount.replace(/^-/, "").split(".");
    const value = BigInt(whole) * 100n + BigInt((fraction + "00").slice(0, 2));
    cents += amount.startsWith("-") ? -value : value;
  }
  const sign = cents < 0n ? "-" : "";
  const size = cents < 0n ? -cents : cents;
  return `${sign}${size / 100n}.${(size % 100n).toString().padStart(2, "0")}`;
}

/** The order's orders/* webhook payload, from the order and all its line items. */
export function restOrder(order: GraphqlOrder, lineItems: GraphqlLineItem[]): Record<string, unknown> {
  const id = numericId(order.id, "Order");
  if (order.legacyResourceId !== id) throw new GraphqlOrderError(`order ${order.id} has legacyResourceId ${order.legacyResourceId}`);
  const landing = order.customerJourneySummary?.firstVisit?.landingPage ?? order.customerJourneySummary?.lastVisit?.landingPage ?? null;
  const customer = order.customer;
  const shipping = order.shippingAddress;
  return {
    id,
    admin_graphql_api_id: order.id,
    name: order.name,
    email: order.email,
    contact_email: order.email,
    phone: order.phone,
    test: order.test,
    browser_ip: order.clientIp,
    landing_site: landing,
    currency: order.currencyCode,
    taxes_included: order.taxesIncluded,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    processed_at: order.processedAt,
    cancelled_at: order.cancelledAt,
    checkout_token: order.checkoutToken,
    subtotal_price_set: moneySet(order.subtotalPriceSet),
    total_price_set: moneySet(order.totalPriceSet),
    total_line_items_price_set: { shop_money: { amount: sumMoney(lineItems.map((item) => item.originalTotalSet.shopMoney.amount)) } },
    note_attributes: order.customAttributes.map((attribute) => ({ name: attribute.key, value: attribute.value })),
    discount_codes: order.discountCodes.map((code) => ({ code })),
    line_items: lineItems.map((item) => ({ tax_lines: item.taxLines.map((tax) => ({ price_set: moneySet(tax.priceSet) })) })),
    customer: customer
      ? {
          id: numericId(customer.id, "Customer"),
          email: customer.defaultEmailAddress?.emailAddress ?? null,
          first_name: customer.firstName,
          last_name: customer.lastName,
          phone: customer.defaultPhoneNumber?.phoneNumber ?? null,
          orders_count: Number(customer.numberOfOrders),
        }
      : null,
    billing_address: order.billingAddress ? { first_name: order.billingAddress.firstName, last_name: order.billingAddress.lastName } : null,
    shipping_address: shipping
      ? { address1: shipping.address1, address2: shipping.address2, city: shipping.city, zip: shipping.zip, country_code: shipping.countryCodeV2, phone: shipping.phone }
      : null,
  };
}

/**
 * The refunds/create webhook payload of one refund. Shipping given back is
 * an order adjustment of kind shipping_refund in that payload; GraphQL lists
 * it as refund shipping lines.
 */
export function restRefund(orderId: string, refund: GraphqlRefund): Record<string, unknown> {
  const id = numericId(refund.id, "Refund");
  return {
    id,
    order_id: orderId,
    created_at: refund.createdAt,
    refund_line_items: refund.refundLineItems.nodes.map((line) => ({
      line_item_id: numericId(line.lineItem.id, "LineItem"),
      subtotal_set: moneySet(line.subtotalSet),
      total_tax_set: moneySet(line.totalTaxSet),
    })),
    transactions: refund.transactions.nodes.map((transaction) => ({
      id: numericId(transaction.id, "OrderTransaction"),
      kind: transaction.kind.toLowerCase(),
      status: transaction.status.toLowerCase(),
      amount: transaction.amountSet.shopMoney.amount,
    })),
    order_adjustments: [
      ...refund.orderAdjustments.nodes.map((adjustment) => ({
        kind: "refund_discrepancy",
        amount_set: moneySet(adjustment.amountSet),
        tax_amount_set: moneySet(adjustment.taxAmountSet),
      })),
      ...refund.refundShippingLines.nodes.map((line) => ({
        kind: "shipping_refund",
        amount_set: { shop_money: { amount: `-${line.subtotalAmountSet.shopMoney.amount.replace(/^-/, "")}` } },
        tax_amount_set: { shop_money: { amount: `-${line.taxAmountSet.shopMoney.amount.replace(/^-/, "")}` } },
      })),
    ],
  };
}

/** Paid as orders/paid means it: paid in full, whatever was refunded since. */
export function isPaid(order: GraphqlOrder): boolean {
  return order.fullyPaid || ["PAID", "PARTIALLY_REFUNDED", "REFUNDED"].includes(order.displayFinancialStatus ?? "");
}

export interface OrderDetails {
  /** Every line item of the order (a page holds the first few; the rest are read on their own). */
  lineItems: GraphqlLineItem[];
  /** The refunds read in full: those the app had not stored yet. */
  refunds: GraphqlRefund[];
  /** Which sync read the order. */
  arrivedBy: OrderSource;
}

/**
 * The webhooks Shopify would have sent for the order as it stands:
 * orders/create, orders/paid once it is paid (the intake acts on the one the
 * shop records on), orders/cancelled once cancelled, refunds/create for each
 * refund given. Each is keyed as its webhook is, so one already received
 * changes nothing.
 */
export function orderWebhooks(shop: string, order: GraphqlOrder, details: OrderDetails): OrderWebhook[] {
  const payload = restOrder(order, details.lineItems);
  const orderId = payload.id as string;
  const hook = (topic: string, body: unknown, at: string | null): OrderWebhook => ({
    topic,
    shop,
    payload: body,
    webhookId: null,
    triggeredAt: at ? new Date(at) : null,
    arrivedBy: details.arrivedBy,
  });
  const hooks = [hook("ORDERS_CREATE", payload, order.createdAt)];
  if (isPaid(order)) hooks.push(hook("ORDERS_PAID", payload, order.processedAt));
  if (order.cancelledAt) {
    // The webhook's financial_status is GraphQL's display status in lower case (VOIDED → voided).
    const financial = order.displayFinancialStatus ? { financial_status: order.displayFinancialStatus.toLowerCase() } : {};
    hooks.push(hook("ORDERS_CANCELLED", { id: orderId, cancelled_at: order.cancelledAt, ...financial }, order.cancelledAt));
  }
  for (const refund of details.refunds) hooks.push(hook("REFUNDS_CREATE", restRefund(orderId, refund), refund.createdAt));
  return hooks;
}
