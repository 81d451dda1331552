// Real-shaped Shopify order and refund webhook payloads for the tests, the
// demo and the benchmark: the fields Shopify sends for orders/paid at Admin
// API 2026-10, trimmed of the ones nobody reads.

let nextId = 5_640_000_000_001;
let nextCustomerId = 7_210_000_000_017;

export interface OrderOptions {
  id?: number;
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
  customerId?: number | null;
}

export function shopifyOrder(options: OrderOptions = {}) {
  const id = options.id ?? nextId++;
  const subtotal = options.subtotal ?? "90.00";
  const total = options.total ?? "104.95";
  const lineItemsTotal = options.lineItemsTotal ?? "100.00";
  const money = (amount: string) => ({
    shop_money: { amount, currency_code: "USD" },
    presentment_money: { amount, currency_code: "USD" },
  });
  const customerEmail = options.customerEmail === undefined ? "jon@example.com" : options.customerEmail;
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    app_id: 580111,
    browser_ip: "203.0.113.7",
    buyer_accepts_marketing: false,
    cancel_reason: null,
    cancelled_at: null,
    confirmation_number: "K9HT5W1QZ",
    confirmed: true,
    contact_email: options.email === undefined ? "jon@example.com" : options.email,
    created_at: "2026-11-20T10:15:00-05:00",
    currency: "USD",
    current_subtotal_price: subtotal,
    current_total_price: total,
    discount_codes: (options.discountCodes ?? []).map((code) => ({ code, amount: "10.00", type: "fixed_amount" })),
    email: options.email === undefined ? "jon@example.com" : options.email,
    financial_status: "paid",
    landing_site: options.landingSite === undefined ? "/" : options.landingSite,
    name: options.name ?? `#${1000 + (id % 1000)}`,
    note: null,
    note_attributes: options.noteAttributes ?? [],
    order_number: 1000 + (id % 1000),
    presentment_currency: "USD",
    referring_site: "https://www.example-search.com/",
    source_name: "web",
    subtotal_price: subtotal,
    subtotal_price_set: money(subtotal),
    tags: "",
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
    customer:
      options.customerId === null
        ? null
        : {
            id: options.customerId ?? nextCustomerId++,
            email: customerEmail,
            first_name: "Jon",
            last_name: "Snow",
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

export function shopifyRefund(orderId: number, subtotals: string[], id = nextId++) {
  return {
    id,
    order_id: orderId,
    created_at: "2026-11-21T09:00:00-05:00",
    note: "Customer returned an item",
    restock: true,
    admin_graphql_api_id: `gid://shopify/Refund/${id}`,
    refund_line_items: subtotals.map((subtotal, index) => ({
      id: id + index + 1,
      line_item_id: 14_860_000_000_005,
      quantity: 1,
      restock_type: "return",
      subtotal: Number(subtotal),
      subtotal_set: { shop_money: { amount: subtotal, currency_code: "USD" }, presentment_money: { amount: subtotal, currency_code: "USD" } },
      total_tax: 0,
    })),
    transactions: [{ amount: subtotals[0] ?? "0.00", kind: "refund", status: "success", gateway: "bogus" }],
    order_adjustments: [],
  };
}
