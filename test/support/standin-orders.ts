// The shop's orders in the Admin GraphQL stand-in: made from the same
// REST-shaped samples the webhook tests send (so one order can arrive both
// ways), served as Shopify's 2026-10 schema has them, searched with
// Shopify's `updated_at:>=` / `created_at:<=` syntax and paged with cursors.

type Rest = Record<string, unknown>;
type Money = { shopMoney: { amount: string; currencyCode: string } };

/** The digits of an id in a sample payload (a bigint id is a raw JSON value there). */
function digits(id: unknown): string {
  if (typeof id === "object" && id !== null && "rawJSON" in id) return String((id as { rawJSON: string }).rawJSON);
  return String(id);
}

const money = (amount: unknown, currencyCode = "USD"): Money => ({ shopMoney: { amount: String(amount ?? "0.00"), currencyCode } });
const shopAmount = (set: unknown, plain?: unknown) => (set as { shop_money?: { amount?: string } } | undefined)?.shop_money?.amount ?? plain;

export interface StoredOrder {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  processedAt: Date;
  cancelledAt: Date | null;
  financialStatus: string;
  rest: Rest;
  refunds: { id: string; createdAt: Date; rest: Rest }[];
  /** The selling plan of its line items (a subscription order), which only the GraphQL Admin API tells; null for none. */
  sellingPlan?: string | null;
}

function connection<T>(items: T[], { first = 50, after }: { first?: number; after?: string | null }) {
  const start = after ? Number(Buffer.from(after, "base64url").toString()) : 0;
  const page = items.slice(start, start + first);
  const end = start + page.length;
  return { nodes: page, pageInfo: { hasNextPage: end < items.length, endCursor: page.length > 0 ? Buffer.from(String(end)).toString("base64url") : null, hasPreviousPage: start > 0, startCursor: null } };
}

function refundView(refund: StoredOrder["refunds"][number], orderId: string) {
  const rest = refund.rest;
  const lines = (rest.refund_line_items as Rest[] | undefined) ?? [];
  const transactions = (rest.transactions as Rest[] | undefined) ?? [];
  const adjustments = (rest.order_adjustments as Rest[] | undefined) ?? [];
  return {
    id: `gid://shopify/Refund/${refund.id}`,
    legacyResourceId: refund.id,
    createdAt: refund.createdAt.toISOString(),
    order: { id: `gid://shopify/Order/${orderId}` },
    refundLineItems: (args: { first?: number; after?: string }) =>
      connection(
        lines.map((line) => ({
          lineItem: { id: `gid://shopify/LineItem/${digits(line.line_item_id)}` },
          subtotalSet: money(shopAmount(line.subtotal_set, line.subtotal)),
          totalTaxSet: money(shopAmount(line.total_tax_set, line.total_tax)),
        })),
        args,
      ),
    transactions: (args: { first?: number; after?: string }) =>
      connection(
        transactions.map((t) => ({
          id: `gid://shopify/OrderTransaction/${digits(t.id)}`,
          kind: String(t.kind ?? "refund").toUpperCase(),
          status: String(t.status ?? "success").toUpperCase(),
          amountSet: money(t.amount),
        })),
        args,
      ),
    orderAdjustments: (args: { first?: number; after?: string }) =>
      connection(
        adjustments
          .filter((a) => a.kind !== "shipping_refund")
          .map((a) => ({ id: "gid://shopify/OrderAdjustment/1", reason: "REFUND_DISCREPANCY", amountSet: money(shopAmount(a.amount_set, a.amount)), taxAmountSet: money(shopAmount(a.tax_amount_set, a.tax_amount)) })),
        args,
      ),
    refundShippingLines: (args: { first?: number; after?: string }) =>
      connection(
        adjustments
          .filter((a) => a.kind === "shipping_refund")
          .map((a) => ({
            id: "gid://shopify/RefundShippingLine/1",
            subtotalAmountSet: money(String(shopAmount(a.amount_set, a.amount)).replace(/^-/, "")),
            taxAmountSet: money(String(shopAmount(a.tax_amount_set, a.tax_amount) ?? "0.00").replace(/^-/, "")),
          })),
        args,
      ),
  };
}

/** An order as the GraphQL Admin API answers it. */
export function orderView(order: StoredOrder) {
  const rest = order.rest;
  const customer = rest.customer as Rest | null | undefined;
  const shipping = rest.shipping_address as Rest | null | undefined;
  const billing = rest.billing_address as Rest | null | undefined;
  const landing = rest.landing_site as string | null | undefined;
  const lineItems = ((rest.line_items as Rest[] | undefined) ?? []).map((item) => ({
    originalTotalSet: money((Number(item.price ?? 0) * Number(item.quantity ?? 1)).toFixed(2)),
    taxLines: ((item.tax_lines as Rest[] | undefined) ?? []).map((tax) => ({ priceSet: money(shopAmount(tax.price_set, tax.price)) })),
    sellingPlan: order.sellingPlan ? { name: order.sellingPlan, sellingPlanId: "gid://shopify/SellingPlan/7340001" } : null,
  }));
  const status = order.financialStatus.toUpperCase();
  return {
    id: `gid://shopify/Order/${order.id}`,
    legacyResourceId: order.id,
    name: rest.name,
    email: rest.email ?? null,
    phone: rest.phone ?? null,
    test: rest.test ?? false,
    clientIp: rest.browser_ip ?? null,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    processedAt: order.processedAt.toISOString(),
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    fullyPaid: status === "PAID",
    displayFinancialStatus: status,
    taxesIncluded: rest.taxes_included ?? false,
    currencyCode: rest.currency ?? "USD",
    checkoutToken: rest.checkout_token ?? null,
    customAttributes: ((rest.note_attributes as Rest[] | undefined) ?? []).map((a) => ({ key: a.name, value: a.value === undefined || a.value === null ? null : String(a.value) })),
    discountCodes: ((rest.discount_codes as Rest[] | undefined) ?? []).map((d) => d.code),
    customerJourneySummary: landing ? { firstVisit: { landingPage: new URL(landing, "https://demo-outfitters.example").href }, lastVisit: null } : null,
    subtotalPriceSet: money(shopAmount(rest.subtotal_price_set, rest.subtotal_price)),
    totalPriceSet: money(shopAmount(rest.total_price_set, rest.total_price)),
    customer: customer
      ? {
          id: `gid://shopify/Customer/${digits(customer.id)}`,
          // Both ways Shopify serves them at 2026-10: the deprecated fields and their replacements.
          email: customer.email ?? null,
          defaultEmailAddress: customer.email ? { emailAddress: customer.email } : null,
          firstName: customer.first_name ?? null,
          lastName: customer.last_name ?? null,
          phone: customer.phone ?? null,
          defaultPhoneNumber: customer.phone ? { phoneNumber: customer.phone } : null,
          numberOfOrders: String(customer.orders_count ?? 1),
        }
      : null,
    billingAddress: billing ? { firstName: billing.first_name ?? null, lastName: billing.last_name ?? null } : null,
    shippingAddress: shipping
      ? { address1: shipping.address1 ?? null, address2: shipping.address2 ?? null, city: shipping.city ?? null, zip: shipping.zip ?? null, countryCodeV2: shipping.country_code ?? null, phone: shipping.phone ?? null }
      : null,
    lineItems: (args: { first?: number; after?: string }) => connection(lineItems, args),
    refunds: ({ first = 50 }: { first?: number }) => order.refunds.slice(0, first).map((refund) => refundView(refund, order.id)),
  };
}

const FIELDS: Record<string, keyof StoredOrder> = { updated_at: "updatedAt", created_at: "createdAt", processed_at: "processedAt" };

/** Shopify's search syntax, the part the app uses: `field:>=value` terms (quoted or not), all of which must hold. */
export function orderFilter(query: string | null | undefined): (order: StoredOrder) => boolean {
  const tests = (query ?? "")
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((term) => {
      const match = /^([a-z_]+):(>=|<=|>|<)'?([^']+)'?$/.exec(term);
      const field = match && FIELDS[match[1]!];
      const at = match ? Date.parse(match[3]!) : NaN;
      if (!match || !field || Number.isNaN(at)) throw new Error(`The stand-in does not understand the search term ${term}`);
      const op = match[2]!;
      return (order: StoredOrder) => {
        const value = (order[field] as Date).getTime();
        return op === ">=" ? value >= at : op === "<=" ? value <= at : op === ">" ? value > at : value < at;
      };
    });
  return (order) => tests.every((test) => test(order));
}

const SORT: Record<string, keyof StoredOrder> = { UPDATED_AT: "updatedAt", CREATED_AT: "createdAt", PROCESSED_AT: "processedAt", ID: "id" };

function sortValue(order: StoredOrder, key: keyof StoredOrder): string {
  const value = order[key];
  return value instanceof Date ? value.toISOString() : String(value).padStart(20, "0");
}

export class StandInOrders {
  readonly byId = new Map<string, StoredOrder>();

  /** Adds an order from a REST-shaped sample (scripts/lib/sample-orders.ts); `at` is when it was created and last updated. */
  add(rest: Rest, options: { at?: Date; financialStatus?: string; sellingPlan?: string } = {}): StoredOrder {
    const at = options.at ?? new Date();
    const order: StoredOrder = {
      id: digits(rest.id),
      createdAt: at,
      updatedAt: at,
      processedAt: at,
      cancelledAt: null,
      financialStatus: options.financialStatus ?? String(rest.financial_status ?? "paid"),
      rest,
      refunds: [],
      sellingPlan: options.sellingPlan ?? null,
    };
    this.byId.set(order.id, order);
    return order;
  }

  cancel(id: string, at = new Date()): void {
    const order = this.byId.get(id)!;
    order.cancelledAt = at;
    order.updatedAt = at;
  }

  refund(id: string, rest: Rest, at = new Date()): void {
    const order = this.byId.get(id)!;
    order.refunds.push({ id: digits(rest.id), createdAt: at, rest });
    order.updatedAt = at;
  }

  search(args: { query?: string | null; first?: number; after?: string | null; sortKey?: string; reverse?: boolean }) {
    const key = SORT[args.sortKey ?? "ID"] ?? "id";
    const keyed = [...this.byId.values()]
      .filter(orderFilter(args.query))
      .map((order) => ({ order, cursor: `${sortValue(order, key)}|${order.id.padStart(20, "0")}` }))
      .sort((a, b) => (a.cursor < b.cursor ? -1 : a.cursor > b.cursor ? 1 : 0));
    if (args.reverse) keyed.reverse();
    // A cursor names the last order of a page by its sort value: orders added meanwhile do not shift the pages.
    const after = args.after ? Buffer.from(args.after, "base64url").toString() : null;
    const rest = after === null ? keyed : keyed.filter((k) => (args.reverse ? k.cursor < after : k.cursor > after));
    const page = rest.slice(0, args.first ?? 50);
    const last = page.at(-1);
    return {
      nodes: page.map((k) => orderView(k.order)),
      pageInfo: {
        hasNextPage: rest.length > page.length,
        hasPreviousPage: after !== null,
        endCursor: last ? Buffer.from(last.cursor).toString("base64url") : null,
        startCursor: page[0] ? Buffer.from(page[0].cursor).toString("base64url") : null,
      },
    };
  }

  resolvers(): Record<string, (args: Record<string, unknown>) => unknown> {
    return {
      orders: (args) => this.search(args as Parameters<StandInOrders["search"]>[0]),
      ordersCount: ({ query }) => ({ count: [...this.byId.values()].filter(orderFilter(query as string | null)).length, precision: "EXACT" }),
      order: ({ id }) => {
        const order = this.byId.get(String(id).replace("gid://shopify/Order/", ""));
        return order ? orderView(order) : null;
      },
      refund: ({ id }) => {
        const refundId = String(id).replace("gid://shopify/Refund/", "");
        for (const order of this.byId.values()) {
          const refund = order.refunds.find((r) => r.id === refundId);
          if (refund) return refundView(refund, order.id);
        }
        return null;
      },
    };
  }
}
