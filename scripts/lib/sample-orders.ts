// Real-shaped Shopify order and refund webhook payloads for the tests, the
// demo and the benchmark: the fields Shopify sends for orders/paid at Admin
// API 2026-10, trimmed of the ones nobody reads.

import { createHash } from "node:crypto";

let nextId = 5_640_000_000_001;
let nextCustomerId = 7_210_000_000_017;

/** A 64-bit id as Shopify writes it: a bare JSON number, however many digits (a bigint is written exactly). */
export type LongId = number | bigint;

const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/**
 * An id for a payload: a bigint goes into the JSON text digit for digit (a
 * raw JSON value, typed as the number it stands for).
 */
export function jsonId(id: LongId): number {
  return (typeof id === "bigint" ? rawJson(id.toString()) : id) as number;
}

export interface ShippingOptions {
  address1: string;
  zip: string;
  phone?: string | null;
}

export interface OrderOptions {
  id?: LongId;
  name?: string;
  email?: string | null;
  customerEmail?: string | null;
  noteAttributes?: { name: string; value: string }[];
  landingSite?: string | null;
  discountCodes?: string[];
  subtotal?: string;
  total?: string;
  lineItemsTotal?: string;
  taxesIncluded?: boolean;
  lineTax?: string;
  test?: boolean;
  customerId?: LongId | null;
  browserIp?: string | null;
  shipping?: ShippingOptions;
  checkoutId?: LongId;
  /** The checkout's token (what the web pixel reports); by default one derived from the order id. */
  checkoutToken?: string;
  /** When the buyer placed it; by default now, as for an order whose webhook arrives as it is paid. */
  createdAt?: Date;
  /** A Shopify POS sale: source "pos", the location and staff member, and no checkout, landing page or browser. */
  pos?: { locationId: LongId; userId: LongId; deviceId?: LongId };
  /** The customer's phone (a POS customer often has a phone and no email). */
  customerPhone?: string | null;
  /** The order's source_name; "web" by default (a subscription app's renewal: "subscription_contract_checkout_one"). */
  sourceName?: string;
  /** The order's tags, comma-separated as Shopify writes them. */
  tags?: string;
}

/** A time as Shopify's payloads write it: to the second, with an offset. */
const shopifyTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** A checkout token shaped as Shopify's (32 hex characters), the same for the same order id. */
export function sampleCheckoutToken(orderId: LongId): string {
  return createHash("md5").update(`checkout-${String(orderId)}`).digest("hex");
}

export function shopifyOrder(options: OrderOptions = {}) {
  const id = options.id ?? nextId++;
  const shipping = options.shipping ?? { address1: "123 Shipping Street", zip: "K2P 1L4", phone: "555-555-0199" };
  const subtotal = options.subtotal ?? "90.00";
  const total = options.total ?? "104.95";
  const lineItemsTotal = options.lineItemsTotal ?? "100.00";
  const money = (amount: string) => ({
    shop_money: { amount, currency_code: "USD" },
    presentment_money: { amount, currency_code: "USD" },
  });
  const customerEmail = options.customerEmail === undefined ? "jon@example.com" : options.customerEmail;
  return {
    id: jsonId(id),
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    app_id: 580111,
    browser_ip: options.pos ? null : options.browserIp === undefined ? "203.0.113.7" : options.browserIp,
    checkout_id: jsonId(options.checkoutId ?? 901414060),
    checkout_token: options.pos ? null : (options.checkoutToken ?? sampleCheckoutToken(id)),
    buyer_accepts_marketing: false,
    cancel_reason: null,
    cancelled_at: null,
    confirmation_number: "K9HT5W1QZ",
    confirmed: true,
    contact_email: options.email === undefined ? "jon@example.com" : options.email,
    created_at: shopifyTime(options.createdAt ?? new Date()),
    currency: "USD",
    current_subtotal_price: subtotal,
    current_total_price: total,
    discount_codes: (options.discountCodes ?? []).map((code) => ({ code, amount: "10.00", type: "fixed_amount" })),
    email: options.email === undefined ? "jon@example.com" : options.email,
    financial_status: "paid",
    landing_site: options.pos ? null : options.landingSite === undefined ? "/" : options.landingSite,
    name: options.name ?? `#${1000 + Number(BigInt(id) % 1000n)}`,
    note: null,
    note_attributes: options.noteAttributes ?? [],
    order_number: 1000 + Number(BigInt(id) % 1000n),
    phone: null,
    presentment_currency: "USD",
    referring_site: options.pos ? null : "https://www.example-search.com/",
    source_name: options.pos ? "pos" : (options.sourceName ?? "web"),
    ...(options.pos
      ? { location_id: jsonId(options.pos.locationId), user_id: jsonId(options.pos.userId), device_id: jsonId(options.pos.deviceId ?? 1_801_237) }
      : { location_id: null, user_id: null, device_id: null }),
    subtotal_price: subtotal,
    subtotal_price_set: money(subtotal),
    tags: options.tags ?? "",
    taxes_included: options.taxesIncluded ?? false,
    test: options.test ?? false,
    total_discounts: "10.00",
    total_line_items_price: lineItemsTotal,
    total_line_items_price_set: money(lineItemsTotal),
    total_price: total,
    total_price_set: money(total),
    total_shipping_price_set: money("9.95"),
    total_tax: "5.00",
    billing_address: { first_name: "Jon", last_name: "Snow", city: "Ottawa", country: "Canada" },
    shipping_address: {
      first_name: "Jon",
      last_name: "Snow",
      address1: shipping.address1,
      address2: null,
      city: "Ottawa",
      province: "Ontario",
      country: "Canada",
      zip: shipping.zip,
      phone: shipping.phone ?? null,
      country_code: "CA",
      province_code: "ON",
    },
    customer:
      options.customerId === null
        ? null
        : {
            id: jsonId(options.customerId ?? nextCustomerId++),
            email: customerEmail,
            first_name: "Jon",
            last_name: "Snow",
            ...(options.customerPhone === undefined ? {} : { phone: options.customerPhone }),
            state: "enabled",
            verified_email: true,
            currency: "USD",
          },
    line_items: [
      {
        id: 14_860_000_000_005,
        name: "Merino hoodie",
        price: "100.00",
        quantity: 1,
        sku: "HOOD-1",
        tax_lines: [{ price: options.lineTax ?? "5.00", rate: 0.05, title: "GST", price_set: money(options.lineTax ?? "5.00") }],
      },
    ],
    refunds: [],
    shipping_lines: [{ title: "Standard", price: "9.95" }],
  };
}

export interface RefundOptions {
  /** The tax within each line's subtotal (Shopify's total_tax), in line order. */
  lineTaxes?: string[];
  /** Refund transactions' amounts; by default one for the lines' total. */
  transactions?: string[];
  orderAdjustments?: { kind: "shipping_refund" | "refund_discrepancy"; amount: string; taxAmount?: string }[];
  /** Shipping given back (API 2024-10 and later: refund_shipping_lines, no longer an order adjustment). */
  shipping?: string;
  /** Duties given back. */
  duties?: string;
  /** The customer paid in another currency: presentment amounts are these times the shop's. */
  presentment?: { currency: string; rate: number };
}

/** A refunds/create payload shaped like Shopify's documented sample (Admin API 2026-10). */
export function shopifyRefund(orderId: LongId, subtotals: string[], id: LongId = nextId++, options: RefundOptions = {}) {
  const refundId = BigInt(id);
  const near = (n: number) => jsonId(typeof id === "bigint" ? id + BigInt(n) : id + n);
  const money = (amount: string) => ({
    shop_money: { amount, currency_code: "USD" },
    presentment_money: options.presentment
      ? { amount: (Number(amount) * options.presentment.rate).toFixed(2), currency_code: options.presentment.currency }
      : { amount, currency_code: "USD" },
  });
  const lineTotal = subtotals.reduce((sum, subtotal) => sum + Math.round(Number(subtotal) * 100), 0);
  const transactions = options.transactions ?? (subtotals.length > 0 ? [(lineTotal / 100).toFixed(2)] : []);
  return {
    id: jsonId(id),
    order_id: jsonId(orderId),
    created_at: "2026-11-21T09:00:00-05:00",
    note: "Customer returned an item",
    user_id: 548380009,
    processed_at: "2026-11-21T09:00:00-05:00",
    restock: true,
    duties: options.duties ? [{ duty_id: near(300), amount_set: money(options.duties) }] : [],
    total_duties_set: money(options.duties ?? "0.00"),
    return: null,
    admin_graphql_api_id: `gid://shopify/Refund/${refundId}`,
    refund_line_items: subtotals.map((subtotal, index) => {
      const tax = options.lineTaxes?.[index] ?? "0.00";
      return {
        id: near(index + 1),
        line_item_id: 14_860_000_000_005,
        location_id: 24826418,
        quantity: 1,
        restock_type: "return",
        subtotal: Number(subtotal),
        subtotal_set: money(subtotal),
        total_tax: Number(tax),
        total_tax_set: money(tax),
      };
    }),
    transactions: transactions.map((amount, index) => ({
      id: near(100 + index),
      order_id: jsonId(orderId),
      kind: "refund",
      gateway: "bogus",
      status: "success",
      message: "Bogus Gateway: Forced success",
      created_at: "2026-11-21T09:00:00-05:00",
      test: false,
      authorization: null,
      parent_id: 1068278463,
      processed_at: "2026-11-21T09:00:00-05:00",
      source_name: "web",
      amount,
      currency: "USD",
      admin_graphql_api_id: `gid://shopify/OrderTransaction/${refundId + 100n + BigInt(index)}`,
    })),
    refund_shipping_lines: options.shipping
      ? [{ id: near(400), shipping_line_id: near(401), subtotal_amount_set: money(options.shipping), tax_amount_set: money("0.00") }]
      : [],
    order_adjustments: (options.orderAdjustments ?? []).map((adjustment, index) => ({
      id: near(200 + index),
      order_id: jsonId(orderId),
      refund_id: jsonId(id),
      amount: adjustment.amount,
      tax_amount: adjustment.taxAmount ?? "0.00",
      kind: adjustment.kind,
      reason: adjustment.kind === "shipping_refund" ? "Shipping refund" : "Refund discrepancy",
      amount_set: money(adjustment.amount),
      tax_amount_set: money(adjustment.taxAmount ?? "0.00"),
    })),
  };
}
