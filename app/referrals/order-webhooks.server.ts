import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { insertJob, isUniqueViolation, jobRow } from "../jobs/enqueue.server";
import { notifyJobEnqueued } from "../jobs/wake";
import type { Logger } from "../logger.server";
import { moneyFromCents, moneyToCents } from "../referral-api/money";
import { attributeOrder } from "./attribution";
import { orderPayloadSchema, refundPayloadSchema, shopAmount, type RefundPayload } from "./order-payload";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "./pipeline-settings";

export interface OrderWebhook {
  /** As authenticate.webhook gives it, e.g. ORDERS_PAID. */
  topic: string;
  shop: string;
  payload: unknown;
  webhookId: string | null;
  triggeredAt: Date | null;
  hasSession: boolean;
}

export type IntakeResult =
  | { outcome: "queued" | "skipped" | "duplicate" | "ignored" | "no_session"; detail?: string }
  | { outcome: "malformed"; detail: string };

const RECORD_TOPICS: Record<string, "orders_paid" | "orders_create"> = {
  ORDERS_PAID: "orders_paid",
  ORDERS_CREATE: "orders_create",
};

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
}

/**
 * Stores what an order webhook asks for, in one transaction, and nothing
 * else: no call to the referral service happens inside the request.
 */
export async function acceptOrderWebhook(db: PrismaClient, logger: Logger, hook: OrderWebhook): Promise<IntakeResult> {
  const log = logger.child({ shop: hook.shop, topic: hook.topic, webhookId: hook.webhookId });
  if (!hook.hasSession) {
    log.warn("webhook for a shop without a session (uninstalled?); not queued");
    return { outcome: "no_session" };
  }
  const result = await intake(db, hook);
  if (result.outcome === "malformed") log.error({ detail: result.detail }, "malformed webhook payload");
  else log.info({ outcome: result.outcome, detail: result.detail }, "order webhook accepted");
  if (result.outcome === "queued") notifyJobEnqueued();
  return result;
}

async function intake(db: PrismaClient, hook: OrderWebhook): Promise<IntakeResult> {
  const trigger = RECORD_TOPICS[hook.topic];
  if (trigger) return intakeOrder(db, hook, trigger);
  if (hook.topic === "ORDERS_CANCELLED") return intakeCancellation(db, hook);
  if (hook.topic === "REFUNDS_CREATE") return intakeRefund(db, hook);
  return { outcome: "ignored", detail: `topic ${hook.topic} is not an order topic` };
}

async function once(work: () => Promise<IntakeResult>): Promise<IntakeResult> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: "duplicate" };
    throw error;
  }
}

async function intakeOrder(db: PrismaClient, hook: OrderWebhook, trigger: "orders_paid" | "orders_create"): Promise<IntakeResult> {
  const parsed = orderPayloadSchema.safeParse(hook.payload);
  if (!parsed.success) return { outcome: "malformed", detail: describeIssues(parsed.error) };
  const order = parsed.data;
  const row = await db.shop.findUnique({ where: { shop: hook.shop } });
  const settings = readPipelineSettings(row ?? PIPELINE_DEFAULTS);
  if (settings.trigger !== trigger) return { outcome: "ignored", detail: `the shop records orders on ${settings.trigger}` };

  const attribution = attributeOrder(order, settings);
  const event = attribution.event;
  const record = {
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
  };
  if (attribution.kind === "skip") {
    return once(async () => {
      await db.orderRecord.create({ data: { ...record, status: "skipped", statusReason: attribution.reason } });
      return { outcome: "skipped", detail: attribution.reason };
    });
  }
  const job = jobRow({
    shop: hook.shop,
    kind: "order.record",
    subject: order.id,
    payload: { orderId: order.id, event: attribution.event },
    webhookId: hook.webhookId,
    triggeredAt: hook.triggeredAt,
  });
  // One transaction: the record and its job are stored together or not at all.
  return once(async () => {
    await db.$transaction([db.orderRecord.create({ data: { ...record, status: "queued" } }), db.job.create({ data: job })]);
    return { outcome: "queued" };
  });
}

async function intakeCancellation(db: PrismaClient, hook: OrderWebhook): Promise<IntakeResult> {
  const parsed = z.object({ id: orderPayloadSchema.shape.id }).safeParse(hook.payload);
  if (!parsed.success) return { outcome: "malformed", detail: describeIssues(parsed.error) };
  const orderId = parsed.data.id;
  return once(async () => {
    await insertJob(db, {
      shop: hook.shop,
      kind: "order.cancel",
      subject: orderId,
      payload: { orderId },
      webhookId: hook.webhookId,
      triggeredAt: hook.triggeredAt,
    });
    return { outcome: "queued" };
  });
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

async function intakeRefund(db: PrismaClient, hook: OrderWebhook): Promise<IntakeResult> {
  const parsed = refundPayloadSchema.safeParse(hook.payload);
  if (!parsed.success) return { outcome: "malformed", detail: describeIssues(parsed.error) };
  const refund = parsed.data;
  const amount = refundedAmount(refund);
  if (moneyToCents(amount) === 0n) return { outcome: "ignored", detail: "the refund returns no merchandise value" };
  return once(async () => {
    await insertJob(db, {
      shop: hook.shop,
      kind: "order.refund",
      subject: `${refund.order_id}:${refund.id}`,
      payload: { orderId: refund.order_id, refundId: refund.id, amount },
      webhookId: hook.webhookId,
      triggeredAt: hook.triggeredAt,
    });
    return { outcome: "queued" };
  });
}
