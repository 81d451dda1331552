import { z } from "zod";
import { jobRow, type NewJob } from "../jobs/enqueue.server";
import { moneyFromCents, moneyToCents } from "../referral-api/money";
import { attributeOrder } from "./attribution";
import { orderPayloadSchema, refundPayloadSchema, shopAmount, type RefundPayload } from "./order-payload";
import type { PipelineSettings } from "./pipeline-settings";

// What an order webhook asks the app to store, decided without the database:
// the shop's state is read for a whole batch of webhooks, then each one is
// planned here, then the batch is stored in one transaction.

export interface OrderWebhook {
  /** As authenticate.webhook gives it, e.g. ORDERS_PAID. */
  topic: string;
  shop: string;
  payload: unknown;
  webhookId: string | null;
  triggeredAt: Date | null;
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

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
}

export function planOrderWebhook(hook: OrderWebhook, shop: ShopState): IntakePlan {
  if (!shop.hasSession) return { outcome: "no_session" };
  const trigger = RECORD_TOPICS[hook.topic];
  if (trigger) return planOrder(hook, trigger, shop.settings);
  if (hook.topic === "ORDERS_CANCELLED") return planCancellation(hook);
  if (hook.topic === "REFUNDS_CREATE") return planRefund(hook);
  return { outcome: "ignored", detail: `topic ${hook.topic} is not an order topic` };
}

function planOrder(hook: OrderWebhook, trigger: PipelineSettings["trigger"], settings: PipelineSettings): IntakePlan {
  const parsed = orderPayloadSchema.safeParse(hook.payload);
  if (!parsed.success) return { outcome: "malformed", detail: describeIssues(parsed.error) };
  const order = parsed.data;
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
  const job = jobRow({
    shop: hook.shop,
    kind: "order.record",
    subject: order.id,
    payload: { orderId: order.id, event: attribution.event },
    webhookId: hook.webhookId,
    triggeredAt: hook.triggeredAt,
  });
  return { outcome: "queued", write: { record, job } };
}

function planCancellation(hook: OrderWebhook): IntakePlan {
  const parsed = z.object({ id: orderPayloadSchema.shape.id }).safeParse(hook.payload);
  if (!parsed.success) return { outcome: "malformed", detail: describeIssues(parsed.error) };
  const orderId = parsed.data.id;
  const job = jobRow({
    shop: hook.shop,
    kind: "order.cancel",
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
  const parsed = refundPayloadSchema.safeParse(hook.payload);
  if (!parsed.success) return { outcome: "malformed", detail: describeIssues(parsed.error) };
  const refund = parsed.data;
  const amount = refundedAmount(refund);
  if (moneyToCents(amount) === 0n) return { outcome: "ignored", detail: "the refund returns no merchandise value" };
  const job = jobRow({
    shop: hook.shop,
    kind: "order.refund",
    subject: `${refund.order_id}:${refund.id}`,
    payload: { orderId: refund.order_id, refundId: refund.id, amount },
    webhookId: hook.webhookId,
    triggeredAt: hook.triggeredAt,
  });
  return { outcome: "queued", write: { job } };
}
