// The fields of Shopify's order and refund webhook payloads that the app
// reads. Everything else is ignored; ids arrive as numbers (long ones as
// text, see lossless-json.ts) and are kept as text, amounts arrive as text or
// numbers and are kept as text.
//
// Read by hand rather than with a schema library: every order webhook goes
// through here, and a zod parse of an order allocated ~9 KB (a third of all
// the memory a webhook costs), which the garbage collector paid for at
// thousands of webhooks a second. These readers copy only what they check.

/** A payload that lacks a field the app needs, or has one of the wrong type. */
export class PayloadError extends Error {
  /** Where in the payload, outermost key first; empty for the body itself. */
  readonly path: (string | number)[] = [];

  constructor(private readonly problem: string) {
    super(`body: ${problem}`);
    this.name = "PayloadError";
  }

  /** The same error one level further out: `key` is where the inner value sits. */
  within(key: string | number): PayloadError {
    this.path.unshift(key);
    this.message = `${this.path.join(".")}: ${this.problem}`;
    return this;
  }
}

function wrong(expected: string, received: unknown): PayloadError {
  let what: string;
  if (received === undefined) what = "nothing";
  else if (received === null) what = "null";
  else if (Array.isArray(received)) what = "a list";
  else if (typeof received === "object") what = "an object";
  else what = `${typeof received} ${JSON.stringify(received)}`.slice(0, 60);
  return new PayloadError(`expected ${expected}, received ${what}`);
}

type Fields = Record<string, unknown>;
type Read<T> = (value: unknown) => T;

function fields(value: unknown): Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw wrong("an object", value);
  return value as Fields;
}

/** Reads a value found at `key` (of an object or a list); an error inside it names the key. */
function at<T>(key: string | number, value: unknown, read: Read<T>): T {
  try {
    return read(value);
  } catch (error) {
    throw error instanceof PayloadError ? error.within(key) : error;
  }
}

/** Reads one field of an object. */
function field<T>(from: Fields, key: string, read: Read<T>): T {
  return at(key, from[key], read);
}

/** Absent or null stays as it is; anything else must be what `read` reads. */
function maybe<T>(read: Read<T>): Read<T | null | undefined> {
  return (value) => (value === undefined || value === null ? value : read(value));
}

function listOf<T>(read: Read<T>): Read<T[]> {
  return (value) => {
    if (!Array.isArray(value)) throw wrong("a list", value);
    return value.map((item, index) => at(index, item, read));
  };
}

const text: Read<string> = (value) => {
  if (typeof value !== "string") throw wrong("text", value);
  return value;
};

const flag: Read<boolean> = (value) => {
  if (typeof value !== "boolean") throw wrong("true or false", value);
  return value;
};

/**
 * Shopify's ids: numbers in the JSON (or their digits, when parseShopifyJson
 * quoted them), text here. A number past 2^53 has lost digits already: refused.
 */
const id: Read<string> = (value) => {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string" && /^[0-9]{1,20}$/.test(value)) return value;
  throw wrong(typeof value === "number" ? "an id of at most 2^53 (parse with parseShopifyJson)" : "an id", value);
};

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * At most 15 digits before the point: what a double (the referral service's amounts) holds exactly, and
 * far past any order Shopify takes. A longer amount, or a JSON number too large for a double (1e400 reads
 * as Infinity), is no price.
 */
const AMOUNT_RANGE = /^-?0*[0-9]{1,15}(\.|$)/;

/** A price: "12.50" or 12.5, kept as text. Text that is no decimal, or one past the range, is refused here, where the answer can name the field. */
const amount: Read<string> = (value) => {
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : typeof value === "string" && DECIMAL.test(value) ? value : null;
  if (text === null && !(typeof value === "number")) throw wrong("an amount", value);
  if (text === null || !(AMOUNT_RANGE.test(text) || /e-/.test(text))) throw wrong("an amount of at most 15 digits before the point", value);
  return text;
};

export interface MoneySet {
  shop_money?: { amount: string };
}

const shopMoney: Read<{ amount: string }> = (value) => ({ amount: field(fields(value), "amount", amount) });

/** A `_set` price: only its shop-currency amount is read. */
const moneySet: Read<MoneySet> = (value) => {
  const set = fields(value);
  return set.shop_money === undefined ? {} : { shop_money: field(set, "shop_money", shopMoney) };
};

const optionalId = maybe(id);
const optionalText = maybe(text);
const optionalFlag = maybe(flag);
const optionalAmount = maybe(amount);
const optionalMoneySet = maybe(moneySet);
const optionalNumber = maybe<number>((value) => {
  if (typeof value !== "number") throw wrong("a number", value);
  return value;
});

export interface OrderPayload {
  id: string;
  name?: string | null;
  email?: string | null;
  contact_email?: string | null;
  test?: boolean | null;
  browser_ip?: string | null;
  landing_site?: string | null;
  currency?: string | null;
  taxes_included?: boolean | null;
  subtotal_price?: string | null;
  subtotal_price_set?: MoneySet | null;
  total_price?: string | null;
  total_price_set?: MoneySet | null;
  total_line_items_price?: string | null;
  total_line_items_price_set?: MoneySet | null;
  note_attributes?: { name: string; value?: string | number | null }[] | null;
  discount_codes?: { code?: string | null }[] | null;
  line_items?: { tax_lines?: { price?: string | null; price_set?: MoneySet | null }[] | null }[] | null;
  customer?: {
    id?: string | null;
    email?: string | null;
    first_name?: string | null;
    last_name?: string | null;
    phone?: string | null;
    orders_count?: number | null;
  } | null;
  billing_address?: { first_name?: string | null; last_name?: string | null } | null;
  shipping_address?: ShippingAddress | null;
  phone?: string | null;
  checkout_id?: string | null;
  checkout_token?: string | null;
  created_at?: string | null;
  cancelled_at?: string | null;
  /** Where the order was placed: "web", "pos" (Shopify POS), an app's id... */
  source_name?: string | null;
  /** Comma-separated, as Shopify's REST payload writes them. */
  tags?: string | null;
}

export interface ShippingAddress {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  zip?: string | null;
  country_code?: string | null;
  phone?: string | null;
}

type NoteAttribute = NonNullable<OrderPayload["note_attributes"]>[number];
type LineItem = NonNullable<OrderPayload["line_items"]>[number];
type TaxLine = NonNullable<LineItem["tax_lines"]>[number];

const noteValue: Read<NoteAttribute["value"]> = (value) => {
  if (value === undefined || value === null || typeof value === "string" || typeof value === "number") return value;
  throw wrong("text or a number", value);
};

const noteAttribute: Read<NoteAttribute> = (value) => {
  const f = fields(value);
  return { name: field(f, "name", text), value: field(f, "value", noteValue) };
};

const discountCode: Read<{ code?: string | null }> = (value) => ({ code: field(fields(value), "code", optionalText) });

const taxLine: Read<TaxLine> = (value) => {
  const f = fields(value);
  return { price: field(f, "price", optionalAmount), price_set: field(f, "price_set", optionalMoneySet) };
};

const taxLines = maybe(listOf(taxLine));
const lineItem: Read<LineItem> = (value) => ({ tax_lines: field(fields(value), "tax_lines", taxLines) });

const customer: Read<NonNullable<OrderPayload["customer"]>> = (value) => {
  const f = fields(value);
  return {
    id: field(f, "id", optionalId),
    email: field(f, "email", optionalText),
    first_name: field(f, "first_name", optionalText),
    last_name: field(f, "last_name", optionalText),
    phone: field(f, "phone", optionalText),
    orders_count: field(f, "orders_count", optionalNumber),
  };
};

const shippingAddress: Read<ShippingAddress> = (value) => {
  const f = fields(value);
  return {
    address1: field(f, "address1", optionalText),
    address2: field(f, "address2", optionalText),
    city: field(f, "city", optionalText),
    zip: field(f, "zip", optionalText),
    country_code: field(f, "country_code", optionalText),
    phone: field(f, "phone", optionalText),
  };
};
const optionalShippingAddress = maybe(shippingAddress);

const billingAddress: Read<NonNullable<OrderPayload["billing_address"]>> = (value) => {
  const f = fields(value);
  return { first_name: field(f, "first_name", optionalText), last_name: field(f, "last_name", optionalText) };
};

const noteAttributes = maybe(listOf(noteAttribute));
const discountCodes = maybe(listOf(discountCode));
const lineItems = maybe(listOf(lineItem));
const optionalCustomer = maybe(customer);
const optionalBillingAddress = maybe(billingAddress);

/** Source and tags only inform a skip reason or a renewal signal: a value that is no text is read as absent, never a refused order. */
const lenientText: Read<string | null> = (value) => (typeof value === "string" ? value : null);

/** The order of an orders/* webhook; throws PayloadError naming the first field that is wrong. */
export function readOrderPayload(value: unknown): OrderPayload {
  const f = fields(value);
  return {
    id: field(f, "id", id),
    name: field(f, "name", optionalText),
    email: field(f, "email", optionalText),
    contact_email: field(f, "contact_email", optionalText),
    test: field(f, "test", optionalFlag),
    browser_ip: field(f, "browser_ip", optionalText),
    landing_site: field(f, "landing_site", optionalText),
    currency: field(f, "currency", optionalText),
    taxes_included: field(f, "taxes_included", optionalFlag),
    subtotal_price: field(f, "subtotal_price", optionalAmount),
    subtotal_price_set: field(f, "subtotal_price_set", optionalMoneySet),
    total_price: field(f, "total_price", optionalAmount),
    total_price_set: field(f, "total_price_set", optionalMoneySet),
    total_line_items_price: field(f, "total_line_items_price", optionalAmount),
    total_line_items_price_set: field(f, "total_line_items_price_set", optionalMoneySet),
    note_attributes: field(f, "note_attributes", noteAttributes),
    discount_codes: field(f, "discount_codes", discountCodes),
    line_items: field(f, "line_items", lineItems),
    customer: field(f, "customer", optionalCustomer),
    billing_address: field(f, "billing_address", optionalBillingAddress),
    shipping_address: field(f, "shipping_address", optionalShippingAddress),
    phone: field(f, "phone", optionalText),
    checkout_id: field(f, "checkout_id", optionalId),
    checkout_token: field(f, "checkout_token", optionalText),
    created_at: field(f, "created_at", optionalText),
    cancelled_at: field(f, "cancelled_at", optionalText),
    source_name: field(f, "source_name", lenientText),
    tags: field(f, "tags", lenientText),
  };
}

/** What the app reads of an orders/cancelled webhook. */
export interface CancellationPayload {
  id: string;
  /** Shopify's payment status of the order once cancelled ("voided", "refunded", ...). */
  financial_status?: string;
}

/**
 * The order id of an orders/cancelled webhook, and its financial status
 * when it is text: it only spares a wait (cancel-order.server.ts), so an
 * odd one is left out rather than refusing the cancellation.
 */
export function readCancellation(value: unknown): CancellationPayload {
  const f = fields(value);
  const status = f.financial_status;
  return { id: field(f, "id", id), ...(typeof status === "string" ? { financial_status: status } : {}) };
}

export interface RefundLine {
  line_item_id?: string | null;
  subtotal?: string | null;
  subtotal_set?: MoneySet | null;
  total_tax?: string | null;
  total_tax_set?: MoneySet | null;
}

export interface OrderAdjustment {
  kind?: string | null;
  amount?: string | null;
  amount_set?: MoneySet | null;
  tax_amount?: string | null;
  tax_amount_set?: MoneySet | null;
}

export interface RefundPayload {
  id: string;
  order_id: string;
  refund_line_items?: RefundLine[] | null;
  order_adjustments?: OrderAdjustment[] | null;
}

const refundLine: Read<RefundLine> = (value) => {
  const f = fields(value);
  return {
    line_item_id: field(f, "line_item_id", optionalId),
    subtotal: field(f, "subtotal", optionalAmount),
    subtotal_set: field(f, "subtotal_set", optionalMoneySet),
    total_tax: field(f, "total_tax", optionalAmount),
    total_tax_set: field(f, "total_tax_set", optionalMoneySet),
  };
};

const orderAdjustment: Read<OrderAdjustment> = (value) => {
  const f = fields(value);
  return {
    kind: field(f, "kind", optionalText),
    amount: field(f, "amount", optionalAmount),
    amount_set: field(f, "amount_set", optionalMoneySet),
    tax_amount: field(f, "tax_amount", optionalAmount),
    tax_amount_set: field(f, "tax_amount_set", optionalMoneySet),
  };
};

const refundLines = maybe(listOf(refundLine));
const orderAdjustments = maybe(listOf(orderAdjustment));

/** The refund of a refunds/create webhook; throws PayloadError naming the first field that is wrong. */
export function readRefundPayload(value: unknown): RefundPayload {
  const f = fields(value);
  return {
    id: field(f, "id", id),
    order_id: field(f, "order_id", id),
    refund_line_items: field(f, "refund_line_items", refundLines),
    order_adjustments: field(f, "order_adjustments", orderAdjustments),
  };
}

/** Shop-currency amount of a price field, preferring the `_set.shop_money` form. */
export function shopAmount(plain: string | null | undefined, set: MoneySet | null | undefined): string | undefined {
  return set?.shop_money?.amount ?? plain ?? undefined;
}
