import type { JobKind, PayloadOf } from "../../platform/queue/job-kind";
import { jobRow, type JobInput, type NewJob } from "../../platform/queue/job-row";
import { moneyFromCents, moneyToCents } from "../../platform/referral-api/money";
import { readOrderEvent } from "./order-event";
import { leadingLink } from "./referral-decision";
import { emailKey } from "../../platform/text/email-key";
import { CANCEL_ORDER_JOB, RECORD_ORDER_JOB, REFUND_ORDER_JOB, refundSubject } from "./job-kinds";
import { PayloadError, readCancellation, readOrderPayload, readRefundPayload, shopAmount, type MoneySet, type RefundPayload } from "./order-payload";
import { parseShopifyJson } from "../../platform/text/lossless-json";
import type { PipelineSettings } from "./pipeline-settings";

// What an order webhook asks the app to store, decided without the database:
// the shop's state is read for a whole batch of webhooks, then each one is
// planned here, then the batch is stored in one transaction. On SQLite this
// runs in the intake thread, so it imports only what planning needs.

export interface OrderWebhook {
  /** As authenticate.webhook gives it, e.g. ORDERS_PAID. */
  topic: string;
  shop: string;
  /**
   * The parsed body, or its raw bytes as delivered. Raw bytes are parsed
   * only when the webhook is planned, so that a webhook waiting for its
   * batch holds one buffer rather than a tree of objects that the garbage
   * collector would copy over and over.
   */
  payload: unknown;
  webhookId: string | null;
  triggeredAt: Date | null;
  /** Set when the app read the order from the Admin API instead of receiving the webhook. */
  arrivedBy?: OrderSource;
}

/** How an order reached the app when no webhook brought it: a reconciliation pass, or the backfill a merchant asked for. */
export type OrderSource = "reconciliation" | "backfill";

/** The body of a webhook as it came over the wire, not yet parsed. */
export class RawJson {
  constructor(readonly bytes: Buffer) {}
}

export interface ShopState {
  /** The shop's offline session exists (it has the app installed). */
  hasSession: boolean;
  settings: PipelineSettings;
}

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
  /** The event of an order judged not referred here (no job is queued), for a pixel signal that comes later. */
  heldEvent: string | null;
  arrivedBy: OrderSource | null;
  status: "queued" | "skipped" | "not_referred";
  statusReason: string | null;
}

/** Rows stored together or not at all; when the record exists already, the delivery is a duplicate. */
export interface IntakeWrite {
  record?: OrderRecordRow;
  job?: NewJob;
}

export type IntakePlan =
  | { outcome: "ignored" | "no_session"; detail?: string }
  | { outcome: "malformed"; detail: string }
  | { outcome: "queued" | "skipped" | "not_referred"; detail?: string; write: IntakeWrite };

/**
 * What became of a webhook. "accepted": kept as it was delivered, to be
 * planned in a moment (SQLite's intake, decision 022); what it then becomes
 * is reported apart (IntakeStore.onPlanned).
 */
export type IntakeResult =
  | { outcome: "queued" | "skipped" | "not_referred" | "duplicate" | "ignored" | "no_session" | "accepted"; detail?: string }
  | { outcome: "malformed"; detail: string }
  /** A kept delivery whose planning failed on it alone: set aside, and planned again when the app next starts (SQLite). */
  | { outcome: "set_aside"; detail: string };

const RECORD_TOPICS: Record<string, PipelineSettings["trigger"]> = {
  ORDERS_PAID: "orders_paid",
  ORDERS_CREATE: "orders_create",
};

/** The job an order webhook asks for, delivered as the webhook was. */
function orderJobRow<K extends JobKind>(kind: K, hook: OrderWebhook, input: Pick<JobInput<PayloadOf<K>>, "subject" | "payload">): NewJob {
  return jobRow(kind, { ...input, shop: hook.shop, webhookId: hook.webhookId, triggeredAt: hook.triggeredAt, arrivedBy: hook.arrivedBy });
}

/** What `read` makes of the payload, or the plan for a payload it cannot read. */
function readPayload<T, In = unknown>(read: (payload: In) => T, payload: In): { value: T } | { malformed: IntakePlan } {
  try {
    return { value: read(payload) };
  } catch (error) {
    if (error instanceof PayloadError) return { malformed: { outcome: "malformed", detail: error.message } };
    throw error;
  }
}

/** A batch of webhooks, planned: the outcome of each, and the writes to store together. */
export interface BatchPlan {
  results: IntakeResult[];
  writes: IntakeWrite[];
  /** For each write, the index of its webhook. */
  written: number[];
}

export function planBatch(hooks: OrderWebhook[], states: Map<string, ShopState>): BatchPlan {
  const plan: BatchPlan = { results: [], writes: [], written: [] };
  hooks.forEach((hook, i) => {
    const planned = planIsolated(hook, states.get(hook.shop)!);
    plan.results[i] = { outcome: planned.outcome, detail: planned.detail } as IntakeResult;
    if ("write" in planned) {
      plan.writes.push(planned.write);
      plan.written.push(i);
    }
  });
  return plan;
}

/**
 * One webhook's plan, whatever its payload holds: a value no reader foresaw
 * (an amount past the money range, a key named __proto__) makes this webhook
 * malformed (400), never an exception that fails the others of its batch.
 */
function planIsolated(hook: OrderWebhook, shop: ShopState): IntakePlan {
  try {
    return planOrderWebhook(hook, shop);
  } catch (error) {
    const what = error instanceof RangeError ? "a number or amount out of range" : "a value the app cannot read";
    return { outcome: "malformed", detail: `the payload holds ${what}` };
  }
}

/** The outcomes once the writes are stored; `fresh[k]` is false when write k was stored before (a repeated delivery). */
export function batchOutcomes(plan: BatchPlan, fresh: boolean[]): IntakeResult[] {
  const results = [...plan.results];
  plan.written.forEach((i, k) => {
    if (!fresh[k]) results[i] = { outcome: "duplicate" };
  });
  return results;
}

export function planOrderWebhook(hook: OrderWebhook, shop: ShopState): IntakePlan {
  if (!shop.hasSession) return { outcome: "no_session" };
  if (hook.payload instanceof RawJson) {
    try {
      hook = { ...hook, payload: parseShopifyJson(hook.payload.bytes.toString("utf8")) };
    } catch {
      return { outcome: "malformed", detail: "the body is not JSON" };
    }
  }
  const trigger = RECORD_TOPICS[hook.topic];
  if (trigger) return planOrder(hook, trigger, shop.settings);
  if (hook.topic === "ORDERS_CANCELLED") return planCancellation(hook);
  if (hook.topic === "REFUNDS_CREATE") return planRefund(hook);
  return { outcome: "ignored", detail: `topic ${hook.topic} is not an order topic` };
}

function planOrder(hook: OrderWebhook, trigger: PipelineSettings["trigger"], settings: PipelineSettings): IntakePlan {
  const read = readPayload(readOrderPayload, hook.payload);
  if ("malformed" in read) return read.malformed;
  const order = read.value;
  if (settings.trigger !== trigger) return { outcome: "ignored", detail: `the shop records orders on ${settings.trigger}` };

  const reading = readOrderEvent(order, settings);
  const event = reading.event;
  // The link code the order arrived with, until its job decides which code wins.
  const link = event ? leadingLink(event.signals) : null;
  const record: OrderRecordRow = {
    shop: hook.shop,
    orderId: order.id,
    orderName: order.name ?? null,
    email: event?.params.email || null,
    emailKey: emailKey(event?.params.email),
    customerId: order.customer?.id ?? null,
    shortCode: link?.code ?? null,
    couponCode: null,
    codeSource: link?.codeSource ?? null,
    campaignUids: event?.campaignUids.join(",") || null,
    revenue: event?.params.revenue ?? null,
    currency: order.currency ?? null,
    browserIp: order.browser_ip ?? null,
    taxesIncluded: order.taxes_included ?? null,
    placedAt: placedAt(order.created_at),
    checkoutToken: order.checkout_token ?? null,
    heldEvent: null,
    arrivedBy: hook.arrivedBy ?? null,
    status: "queued",
    statusReason: null,
  };
  if (reading.kind !== "record") {
    const status = reading.kind === "skip" ? "skipped" : "not_referred";
    // Kept for a web pixel signal that may still name a referrer (app/domains/referrals/pixel-signals.server.ts).
    const heldEvent = status === "not_referred" && reading.event ? JSON.stringify(reading.event) : null;
    return { outcome: status, detail: reading.reason, write: { record: { ...record, heldEvent, status, statusReason: reading.reason } } };
  }
  const job = orderJobRow(RECORD_ORDER_JOB, hook, { subject: order.id, payload: { orderId: order.id, event: reading.event } });
  return { outcome: "queued", write: { record, job } };
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

function planCancellation(hook: OrderWebhook): IntakePlan {
  const read = readPayload(readCancellation, hook.payload);
  if ("malformed" in read) return read.malformed;
  const { id: orderId, financial_status: financialStatus } = read.value;
  const job = orderJobRow(CANCEL_ORDER_JOB, hook, { subject: orderId, payload: { orderId, ...(financialStatus ? { financialStatus } : {}) } });
  return { outcome: "queued", write: { job } };
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

function planRefund(hook: OrderWebhook): IntakePlan {
  const read = readPayload(readRefundPayload, hook.payload);
  if ("malformed" in read) return read.malformed;
  const refund = read.value;
  const value = readPayload(refundedValue, refund);
  if ("malformed" in value) return value.malformed;
  const { amount, tax } = value.value;
  if (moneyToCents(amount) === 0n) return { outcome: "ignored", detail: "the refund returns no merchandise value" };
  const job = orderJobRow(REFUND_ORDER_JOB, hook, {
    subject: refundSubject(refund.order_id, refund.id),
    payload: { orderId: refund.order_id, refundId: refund.id, amount, ...(moneyToCents(tax) > 0n ? { tax } : {}) },
  });
  return { outcome: "queued", write: { job } };
}
