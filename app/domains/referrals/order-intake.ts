import type { Prisma } from "@prisma/client";
import type { JobKind, PayloadOf } from "../../platform/queue/job-kind";
import { jobRow, type JobInput, type NewJob } from "../../platform/queue/job-row";
import {
  intakeRow,
  RawJson,
  type BatchLookup,
  type Delivery,
  type IntakePlanner,
  type IntakeRowRead,
  type IntakeTable,
  type IntakeWrite,
} from "../../platform/intake/planner";
import { timeOf } from "../../platform/db/sql-dialect";
import { moneyFromCents, moneyToCents } from "../../platform/referral-api/money";
import { orderEmail } from "./buyer-identity";
import { cartCode, orderSignals, readOrderEvent } from "./order-event";
import { customerKeys } from "./repeat-purchase";
import { leadingLink } from "./referral-decision";
import { emailKey } from "../../platform/text/email-key";
import { CANCEL_ORDER_JOB, PIXEL_SWEEP_JOB, RECORD_ORDER_JOB, REFUND_ORDER_JOB, refundSubject } from "./job-kinds";
import { signalFit, signalMayCome, waitEndSweep } from "./pixel-signal";
import {
  PayloadError,
  readCancellation,
  readOrderPayload,
  readRefundPayload,
  shopAmount,
  type CancellationPayload,
  type MoneySet,
  type OrderPayload,
  type RefundPayload,
} from "./order-payload";
import { parseShopifyJson } from "../../platform/text/lossless-json";
import { PIPELINE_DEFAULTS, readPipelineSettings, type PipelineSettings } from "./pipeline-settings";

// What an order webhook asks the app to store, decided without the database:
// the order planner the intake (app/platform/intake) is handed. The intake
// reads the shops' state for a whole batch, reads each webhook here (on
// SQLite before it keeps it), looks up the web pixel signals stored for the
// batch's orders (one statement, SIGNALS_AND_REFERRED, with the buyers recorded as referred), plans each webhook here,
// then stores the batch in one transaction. On SQLite this runs in the
// intake's thread, so it imports only what planning needs.

/** How an order reached the app when no webhook brought it: a reconciliation pass, or the backfill a merchant asked for. */
export type OrderSource = "reconciliation" | "backfill";

/** An order webhook, or an order the app read itself (`arrivedBy`). */
export interface OrderWebhook extends Delivery {
  arrivedBy?: OrderSource;
}

export type { IntakeResult } from "../../platform/intake/planner";

/** The OrderRecord row of an order, as the activity page shows it. */
export interface OrderRecordRow {
  shop: string;
  orderId: string;
  orderName: string | null;
  email: string | null;
  emailKey: string | null;
  customerId: string | null;
  shortCode: string | null;
  couponCode: string | null;
  codeSource: string | null;
  campaignUids: string | null;
  revenue: string | null;
  currency: string | null;
  browserIp: string | null;
  taxesIncluded: boolean | null;
  placedAt: Date;
  checkoutToken: string | null;
  /** The event of an order waiting for its web pixel signal (no job is queued), for the signal to queue it with. */
  heldEvent: string | null;
  /** An OrderSource, or null for a webhook. */
  arrivedBy: string | null;
  status: "queued" | "skipped" | "not_referred" | "awaiting_signal";
  statusReason: string | null;
}

export type IntakePlan =
  | { outcome: "ignored"; detail?: string }
  | { outcome: "queued" | "skipped" | "not_referred" | "awaiting_signal"; detail?: string; write: IntakeWrite };

/** OrderRecord's unique key, whole: the compiler holds it to Prisma's (shop, orderId). */
const ORDER_RECORD_KEY: Record<keyof Prisma.OrderRecordShopOrderIdCompoundUniqueInput, true> = { shop: true, orderId: true };

/**
 * The tables an order's plan writes, a record before its job (a job is
 * stored only with a new record); each with its unique key but its id
 * (batch-lock-order.test.ts holds them to the database's unique indexes).
 */
const ORDER_TABLES: readonly IntakeTable[] = [
  { table: "OrderRecord", conflictKey: Object.keys(ORDER_RECORD_KEY) },
  { table: "Job", conflictKey: ["key"], fixed: { status: "queued" } },
];

const RECORD_TOPICS: Record<string, PipelineSettings["trigger"]> = {
  ORDERS_PAID: "orders_paid",
  ORDERS_CREATE: "orders_create",
};

/** What a webhook's payload holds, read by its topic. */
export type OrderRead =
  | { kind: "order"; trigger: PipelineSettings["trigger"]; order: OrderPayload }
  | { kind: "cancellation"; cancellation: CancellationPayload }
  | { kind: "refund"; refund: RefundPayload; value: RefundedValue }
  | { kind: "other" };

/** The payload of a webhook, read by its topic; or why it cannot be read ("<field path>: expected …"). */
export function readOrderWebhook(hook: Delivery): { read: OrderRead } | { malformed: string } {
  let payload = hook.payload;
  if (payload instanceof RawJson) {
    try {
      // parseShopifyJson, not JSON.parse: an unquoted id past 2^53 keeps its digits, and is refused as one that lost them otherwise.
      payload = parseShopifyJson(payload.bytes.toString("utf8"));
    } catch {
      return { malformed: "the body is not JSON" };
    }
  }
  try {
    const trigger = RECORD_TOPICS[hook.topic];
    if (trigger) return { read: { kind: "order", trigger, order: readOrderPayload(payload) } };
    if (hook.topic === "ORDERS_CANCELLED") return { read: { kind: "cancellation", cancellation: readCancellation(payload) } };
    if (hook.topic === "REFUNDS_CREATE") {
      const refund = readRefundPayload(payload);
      return { read: { kind: "refund", refund, value: refundedValue(refund) } };
    }
    return { read: { kind: "other" } };
  } catch (error) {
    if (error instanceof PayloadError) return { malformed: error.message };
    throw error;
  }
}

/** A web pixel signal stored before its order's webhook came. */
interface StoredSignal {
  orderId: string | null;
  code: string;
  campaign: string | null;
  receivedAt: Date;
}

/** The signals the batch's lookup found, by shop and checkout token (signalKey). */
export type FoundSignals = ReadonlyMap<string, StoredSignal>;

/** What the batch's lookup found: the web pixel signals stored for its orders, and which of its buyers the app recorded as referred (by shop and customer key). */
export interface OrderLookupFound {
  signals: FoundSignals;
  referred: ReadonlySet<string>;
}

const NOTHING_FOUND: OrderLookupFound = { signals: new Map(), referred: new Set() };

const signalKey = (shop: string, checkoutToken: string) => `${shop}\n${checkoutToken}`;

/**
 * The stored signals of a batch's orders, by (shop, checkout token): the
 * unique index PixelSignal_shop_checkoutToken_key, one probe per key; and,
 * in the same statement, the ReferredCustomer rows of the buyers of orders
 * without a code, by (shop, customer key): a prefix of the unique index
 * ReferredCustomer_shop_customerKey_campaignUid_key. The keys come as one
 * parameter each on SQLite (a JSON list of pairs; CROSS JOIN keeps the list
 * the outer loop) and as two arrays each on PostgreSQL.
 */
const SIGNALS_AND_REFERRED = {
  sqlite: `SELECT 'signal' AS "kind", p."shop", p."checkoutToken", p."orderId", p."code", p."campaign", p."createdAt"
FROM json_each(?) AS k CROSS JOIN "PixelSignal" p
WHERE p."shop" = json_extract(k."value", '$[0]') AND p."checkoutToken" = json_extract(k."value", '$[1]')
UNION ALL
SELECT 'referred', r."shop", r."customerKey", NULL, NULL, NULL, NULL
FROM json_each(?) AS c CROSS JOIN "ReferredCustomer" r
WHERE r."shop" = json_extract(c."value", '$[0]') AND r."customerKey" = json_extract(c."value", '$[1]')`,
  postgresql: `SELECT 'signal' AS "kind", p."shop", p."checkoutToken", p."orderId", p."code", p."campaign", p."createdAt"
FROM unnest($1::text[], $2::text[]) AS k("shop", "checkoutToken")
JOIN "PixelSignal" p ON p."shop" = k."shop" AND p."checkoutToken" = k."checkoutToken"
UNION ALL
SELECT 'referred', r."shop", r."customerKey", NULL, NULL, NULL, NULL
FROM unnest($3::text[], $4::text[]) AS c("shop", "customerKey")
JOIN "ReferredCustomer" r ON r."shop" = c."shop" AND r."customerKey" = c."customerKey"`,
} as const;

/** The checkout token of an order the web pixel may still credit: one the shop records, with no link in its cart (the cart's comes first). */
function tokenToLookUp(read: OrderRead, settings: PipelineSettings): string | null {
  if (read.kind !== "order" || read.trigger !== settings.trigger) return null;
  return read.order.checkout_token && !cartCode(read.order) ? read.order.checkout_token : null;
}

/**
 * The keys of the buyer of an order the shop would not send for want of a
 * code (repeat-purchase.ts): one the shop records, under "only orders with
 * a referral code", carrying no link or discount code.
 */
function buyerKeysToLookUp(read: OrderRead, settings: PipelineSettings): string[] {
  if (read.kind !== "order" || read.trigger !== settings.trigger || settings.scope !== "with_code") return [];
  const signals = orderSignals(read.order, settings.codeParams);
  if (signals.cartAttribute || signals.landingPage || signals.discountCodes.length > 0) return [];
  return customerKeys(read.order.customer?.id, orderEmail(read.order));
}

const referredKey = (shop: string, customerKey: string) => `${shop}\n${customerKey}`;

const ORDER_LOOKUP: BatchLookup<OrderRead, PipelineSettings, OrderLookupFound> = {
  query(batch, dialect) {
    const tokens = new Map<string, [string, string]>();
    const buyers = new Map<string, [string, string]>();
    for (const { delivery, read, settings } of batch) {
      const token = tokenToLookUp(read, settings);
      if (token) tokens.set(signalKey(delivery.shop, token), [delivery.shop, token]);
      for (const key of buyerKeysToLookUp(read, settings)) buyers.set(referredKey(delivery.shop, key), [delivery.shop, key]);
    }
    if (tokens.size === 0 && buyers.size === 0) return null;
    const [pairs, keys] = [[...tokens.values()], [...buyers.values()]];
    if (dialect.name === "postgresql") {
      return { sql: SIGNALS_AND_REFERRED.postgresql, params: [pairs.map(([shop]) => shop), pairs.map(([, token]) => token), keys.map(([shop]) => shop), keys.map(([, key]) => key)] };
    }
    return { sql: SIGNALS_AND_REFERRED.sqlite, params: [JSON.stringify(pairs), JSON.stringify(keys)] };
  },
  found(rows) {
    const signals = new Map<string, StoredSignal>();
    const referred = new Set<string>();
    for (const row of rows) {
      if (row.kind === "referred") referred.add(referredKey(String(row.shop), String(row.checkoutToken)));
      else signals.set(signalKey(String(row.shop), String(row.checkoutToken)), storedSignal(row));
    }
    return { signals, referred };
  },
};

function storedSignal(row: IntakeRowRead): StoredSignal {
  return {
    orderId: row.orderId === null ? null : String(row.orderId),
    code: String(row.code),
    campaign: row.campaign === null ? null : String(row.campaign),
    receivedAt: timeOf(row.createdAt)!,
  };
}

/** What a webhook that was read asks to store, for a shop that has the app; `signals`: those stored for the batch's orders. */
export function planOrderWebhook(hook: Delivery, read: OrderRead, settings: PipelineSettings, found: OrderLookupFound = NOTHING_FOUND): IntakePlan {
  switch (read.kind) {
    case "order":
      return planOrder(hook, read.trigger, read.order, settings, found);
    case "cancellation":
      return planCancellation(hook, read.cancellation);
    case "refund":
      return planRefund(hook, read.refund, read.value);
    case "other":
      return { outcome: "ignored", detail: `topic ${hook.topic} is not an order topic` };
  }
}

/** The planner the intake is handed (app/wiring/intake-planner.ts). */
export const ORDER_PLANNER: IntakePlanner<OrderRead, PipelineSettings, OrderLookupFound> = {
  name: "orders",
  shopColumns: PIPELINE_DEFAULTS,
  shopSettings: readPipelineSettings,
  read: readOrderWebhook,
  lookup: ORDER_LOOKUP,
  plan: planOrderWebhook,
  tables: ORDER_TABLES,
};

/** The job an order webhook asks for, delivered as the webhook was. */
function orderJobRow<K extends JobKind>(kind: K, hook: Delivery, input: Pick<JobInput<PayloadOf<K>>, "subject" | "payload">): NewJob {
  return jobRow(kind, { ...input, shop: hook.shop, webhookId: hook.webhookId, triggeredAt: hook.triggeredAt, arrivedBy: hook.arrivedBy });
}

const recordRow = (record: OrderRecordRow) => intakeRow("OrderRecord", record);
const jobIntakeRow = (job: NewJob) => intakeRow("Job", job);

/** Where the leading link came from, in OrderRecord.codeSource's words. */
const CODE_SOURCES = { cart_attribute: "cart_attribute", pixel: "pixel", landing_page: "landing_site" } as const;

/** The order's web pixel signal among those found, if it is this order's (signalFit). */
function joinedSignal(signals: FoundSignals, shop: string, order: OrderPayload, placed: Date) {
  const signal = order.checkout_token ? signals.get(signalKey(shop, order.checkout_token)) : undefined;
  if (!signal || signalFit(signal, { orderId: order.id, placedAt: placed }) !== "joins") return null;
  return { code: signal.code, campaign: signal.campaign };
}

function planOrder(hook: Delivery, trigger: PipelineSettings["trigger"], order: OrderPayload, settings: PipelineSettings, found: OrderLookupFound): IntakePlan {
  if (settings.trigger !== trigger) return { outcome: "ignored", detail: `the shop records orders on ${settings.trigger}` };

  const placed = placedAt(order.created_at);
  const pixel = joinedSignal(found.signals, hook.shop, order, placed);
  const referred = customerKeys(order.customer?.id, orderEmail(order)).some((key) => found.referred.has(referredKey(hook.shop, key)));
  const reading = readOrderEvent(order, settings, { pixel, referred, signalMayCome: signalMayCome({ checkoutToken: order.checkout_token, placedAt: placed }, new Date()) });
  const event = reading.event;
  // The link code the decision tries first, until the order's job decides which code wins.
  const link = event ? leadingLink(event.signals, pixel?.code) : null;
  const record: OrderRecordRow = {
    shop: hook.shop,
    orderId: order.id,
    orderName: order.name ?? null,
    email: event?.params.email || null,
    emailKey: emailKey(event?.params.email),
    customerId: order.customer?.id ?? null,
    shortCode: link?.code ?? null,
    couponCode: null,
    codeSource: link ? CODE_SOURCES[link.source] : null,
    campaignUids: event?.campaignUids.join(",") || null,
    revenue: event?.params.revenue ?? null,
    currency: order.currency ?? null,
    browserIp: order.browser_ip ?? null,
    taxesIncluded: order.taxes_included ?? null,
    placedAt: placed,
    checkoutToken: order.checkout_token ?? null,
    heldEvent: null,
    arrivedBy: hook.arrivedBy ?? null,
    status: "queued",
    statusReason: null,
  };
  switch (reading.kind) {
    case "record": {
      const job = orderJobRow(RECORD_ORDER_JOB, hook, { subject: order.id, payload: { orderId: order.id, event: reading.event } });
      return { outcome: "queued", write: [recordRow(record), jobIntakeRow(job)] };
    }
    case "awaiting_signal": {
      // Kept for the web pixel's signal to queue (order-status.server.ts, reopenForSignal); the shop's sweep ends the wait.
      const waiting = { ...record, heldEvent: JSON.stringify(reading.event), status: reading.kind, statusReason: reading.reason };
      const sweep = jobRow(PIXEL_SWEEP_JOB, waitEndSweep(hook.shop, placed));
      return { outcome: reading.kind, detail: reading.reason, write: [recordRow(waiting), jobIntakeRow(sweep)] };
    }
    case "skip":
    case "not_referred": {
      const status = reading.kind === "skip" ? "skipped" : "not_referred";
      return { outcome: status, detail: reading.reason, write: [recordRow({ ...record, status, statusReason: reading.reason })] };
    }
  }
}

/**
 * The order's created_at, never later than now (a clock ahead of ours would
 * put it outside every "last day" window); now when it has none, or one
 * before 1970, which no order has (and a year 0 or before is a time
 * PostgreSQL refuses, which would fail the whole batch).
 */
function placedAt(createdAt: string | null | undefined): Date {
  const ms = createdAt ? Date.parse(createdAt) : NaN;
  return new Date(Number.isNaN(ms) || ms < 0 ? Date.now() : Math.min(ms, Date.now()));
}

function planCancellation(hook: Delivery, { id: orderId, financial_status: financialStatus }: CancellationPayload): IntakePlan {
  const job = orderJobRow(CANCEL_ORDER_JOB, hook, { subject: orderId, payload: { orderId, ...(financialStatus ? { financialStatus } : {}) } });
  return { outcome: "queued", write: [jobIntakeRow(job)] };
}

/** What a refund gives back of the order's merchandise, in the shop's currency, and the tax within it. */
export interface RefundedValue {
  /** Tax included when the order's prices include it (Shopify's refund line subtotals do). */
  amount: string;
  tax: string;
}

const cents = (plain: string | null | undefined, set: MoneySet | null | undefined) => {
  const value = shopAmount(plain, set);
  return value ? moneyToCents(value) : 0n;
};

/**
 * The refund's merchandise value, on the basis the commission is paid on:
 * the refunded lines' subtotals and their tax, less the refund's
 * discrepancy (order adjustments of kind refund_discrepancy: what the lines
 * are worth minus what went back). Shopify writes a discrepancy negative
 * when more went back than the lines are worth (a goodwill or custom
 * amount, with no lines at all) and positive when less did (a restocking
 * fee the merchant kept), so the value is what was actually given back,
 * never below zero. Shipping (refund_shipping_lines since API 2024-10, or
 * a shipping_refund adjustment before), duties, fees and tips never lower
 * it, and neither do the refund's transactions, which hold all of these in
 * the currency the customer paid in. Every amount is the shop's money, as
 * reconciliation reads it too. Throws PayloadError for a negative line.
 */
export function refundedValue(refund: RefundPayload): RefundedValue {
  let amount = 0n;
  let tax = 0n;
  (refund.refund_line_items ?? []).forEach((line, i) => {
    const subtotal = cents(line.subtotal, line.subtotal_set);
    const lineTax = cents(line.total_tax, line.total_tax_set);
    if (subtotal < 0n || lineTax < 0n) throw new PayloadError("a refund amount must not be negative").within(i).within("refund_line_items");
    amount += subtotal;
    tax += lineTax;
  });
  for (const adjustment of refund.order_adjustments ?? []) {
    if (adjustment.kind !== "refund_discrepancy") continue;
    amount -= cents(adjustment.amount, adjustment.amount_set);
    tax -= cents(adjustment.tax_amount, adjustment.tax_amount_set);
  }
  return { amount: moneyFromCents(atLeastZero(amount)), tax: moneyFromCents(atLeastZero(tax)) };
}

const atLeastZero = (value: bigint) => (value < 0n ? 0n : value);

function planRefund(hook: Delivery, refund: RefundPayload, { amount, tax }: RefundedValue): IntakePlan {
  if (moneyToCents(amount) === 0n) return { outcome: "ignored", detail: "the refund returns no merchandise value" };
  const job = orderJobRow(REFUND_ORDER_JOB, hook, {
    subject: refundSubject(refund.order_id, refund.id),
    payload: { orderId: refund.order_id, refundId: refund.id, amount, ...(moneyToCents(tax) > 0n ? { tax } : {}) },
  });
  return { outcome: "queued", write: [jobIntakeRow(job)] };
}
