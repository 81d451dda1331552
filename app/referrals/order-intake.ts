import { jobRowChecked, type JobRowInput, type NewJob } from "../jobs/job-row";
import type { z } from "zod";
import { moneyFromCents, moneyToCents } from "../referral-api/money";
import { attributeOrder } from "./attribution";
import { ORDER_JOB_PAYLOADS, orderLane, type OrderJobKind } from "./order-jobs";
import { PayloadError, readOrderId, readOrderPayload, readRefundPayload, shopAmount, type RefundPayload } from "./order-payload";
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
}

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
  customerId: string | null;
  shortCode: string | null;
  couponCode: string | null;
  codeSource: string | null;
  campaignUids: string | null;
  revenue: string | null;
  currency: string | null;
  status: "queued" | "skipped";
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
  | { outcome: "queued" | "skipped"; detail?: string; write: IntakeWrite };

export type IntakeResult =
  | { outcome: "queued" | "skipped" | "duplicate" | "ignored" | "no_session"; detail?: string }
  | { outcome: "malformed"; detail: string };

const RECORD_TOPICS: Record<string, PipelineSettings["trigger"]> = {
  ORDERS_PAID: "orders_paid",
  ORDERS_CREATE: "orders_create",
};

function orderJobRow<K extends OrderJobKind>(kind: K, input: Omit<JobRowInput<z.input<(typeof ORDER_JOB_PAYLOADS)[K]>>, "kind">): NewJob {
  return jobRowChecked(ORDER_JOB_PAYLOADS[kind], { ...input, kind, lane: orderLane(input.shop, input.payload.orderId) });
}

/** What `read` makes of the payload, or the plan for a payload it cannot read. */
function readPayload<T>(read: (payload: unknown) => T, payload: unknown): { value: T } | { malformed: IntakePlan } {
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
    const planned = planOrderWebhook(hook, states.get(hook.shop)!);
    plan.results[i] = { outcome: planned.outcome, detail: planned.detail } as IntakeResult;
    if ("write" in planned) {
      plan.writes.push(planned.write);
      plan.written.push(i);
    }
  });
  return plan;
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
      hook = { ...hook, payload: JSON.parse(hook.payload.bytes.toString("utf8")) };
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

  const attribution = attributeOrder(order, settings);
  const event = attribution.event;
  const record: OrderRecordRow = {
    shop: hook.shop,
    orderId: order.id,
    orderName: order.name ?? null,
    email: event?.params.email || null,
    customerId: order.customer?.id ?? null,
    shortCode: event?.params.shortCode ?? null,
    couponCode: event?.params.couponCode ?? null,
    codeSource: event?.codeSource ?? null,
    campaignUids: event?.campaignUids.join(",") || null,
    revenue: event?.params.revenue ?? null,
    currency: order.currency ?? null,
    status: "queued",
    statusReason: null,
  };
  if (attribution.kind === "skip") {
    return { outcome: "skipped", detail: attribution.reason, write: { record: { ...record, status: "skipped", statusReason: attribution.reason } } };
  }
  const job = orderJobRow("order.record", {
    shop: hook.shop,
    subject: order.id,
    payload: { orderId: order.id, event: attribution.event },
    webhookId: hook.webhookId,
    triggeredAt: hook.triggeredAt,
  });
  return { outcome: "queued", write: { record, job } };
}

function planCancellation(hook: OrderWebhook): IntakePlan {
  const read = readPayload(readOrderId, hook.payload);
  if ("malformed" in read) return read.malformed;
  const orderId = read.value;
  const job = orderJobRow("order.cancel", {
    shop: hook.shop,
    subject: orderId,
    payload: { orderId },
    webhookId: hook.webhookId,
    triggeredAt: hook.triggeredAt,
  });
  return { outcome: "queued", write: { job } };
}

/** The merchandise value a refund gives back, in the shop's currency. */
export function refundedAmount(refund: RefundPayload): string {
  let cents = 0n;
  for (const line of refund.refund_line_items ?? []) {
    const value = shopAmount(line.subtotal, line.subtotal_set);
    if (value) cents += moneyToCents(value);
  }
  return moneyFromCents(cents);
}

function planRefund(hook: OrderWebhook): IntakePlan {
  const read = readPayload(readRefundPayload, hook.payload);
  if ("malformed" in read) return read.malformed;
  const refund = read.value;
  const amount = refundedAmount(refund);
  if (moneyToCents(amount) === 0n) return { outcome: "ignored", detail: "the refund returns no merchandise value" };
  const job = orderJobRow("order.refund", {
    shop: hook.shop,
    subject: `${refund.order_id}:${refund.id}`,
    payload: { orderId: refund.order_id, refundId: refund.id, amount },
    webhookId: hook.webhookId,
    triggeredAt: hook.triggeredAt,
  });
  return { outcome: "queued", write: { job } };
}
