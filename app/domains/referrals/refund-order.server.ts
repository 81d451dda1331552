import { addMoney, compareMoney, subtractMoney } from "../../platform/referral-api/money";
import type { z } from "zod";
import type { REFUND_ORDER_JOB } from "./job-kinds";
import type { OrderJobContext } from "./order-job-context";
import { findOrderRecord, parseJsonObject, updateOrderRecord, type CampaignResults } from "./order-records.server";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import type { JobMeta } from "../../platform/queue/registry";
import { neverRecorded, nothingToChange, waitForOrder } from "./order-changes.server";
import { needsReview, reviseCommissions, storeReversal } from "./reversal.server";
import { awaitsSignal } from "./order-status.server";

type Payload = z.infer<(typeof REFUND_ORDER_JOB)["payload"]>;

/** The refund on the basis of the order's revenue: without its tax when the order's prices included tax (as the revenue was taken). */
export function refundOnRevenueBasis(amount: string, tax: string | undefined, taxesIncluded: boolean | null): string {
  if (!taxesIncluded || !tax) return amount;
  const net = subtractMoney(amount, tax);
  return compareMoney(net, "0") < 0 ? "0.00" : net;
}

/** A refund of an order: its commission is paid on less revenue, or denied when the whole order is refunded. */
export async function refundOrder(ctx: OrderJobContext, shop: string, { orderId, refundId, amount: given, tax }: Payload, job: JobMeta): Promise<JobOutcome> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (!record && (await neverRecorded(ctx.db, shop, orderId))) return nothingToChange(ctx, shop, orderId, "refund");
  // Not here yet (the refund came first), being sent, failed (the merchant may retry it) or waiting for a pixel signal: it waits for the order.
  if (!record || record.status === "queued" || record.status === "failed" || awaitsSignal(record)) return waitForOrder(job, ctx.now(), "Waiting for the order to be recorded") ?? done;
  if (record.status !== "recorded" || !record.revenue) return done;

  const amount = refundOnRevenueBasis(given, tax, record.taxesIncluded);
  const refunds = parseJsonObject<Record<string, string>>(record.refunds);
  if (refunds[refundId] !== undefined) return done;
  const refunded = Object.values(refunds).reduce((sum, value) => addMoney(sum, value), addMoney(amount, "0"));
  const remaining = subtractMoney(record.revenue, refunded);
  const full = compareMoney(remaining, "0") <= 0;

  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { type: "pause", reason: connection.reason };
  const results = parseJsonObject<CampaignResults>(record.results);
  for (const result of Object.values(results)) if (result.reversal === "revenue_reduced") delete result.reversal;
  const interrupted = await reviseCommissions(
    connection.client,
    orderId,
    results,
    full ? { status: "denied" } : { revenue: remaining },
    full ? "denied" : "revenue_reduced",
  );
  await updateOrderRecord(ctx.db, shop, orderId, { results: JSON.stringify(results) });
  if (interrupted) return interrupted;

  const review = needsReview(results);
  refunds[refundId] = amount;
  const denied = review.length === 0 && full;
  const reversed = "Fully refunded: commission denied";
  await storeReversal(
    ctx.db,
    record,
    {
      refunds: JSON.stringify(refunds),
      ...(review.length > 0
        ? {
            status: "needs_review",
            statusReason: `Refund of ${amount} after the commission in campaign ${review.join(", ")} was approved or denied; the service cannot change it. Review it in Commissions.`,
          }
        : full
          ? { status: "reversed", statusReason: reversed }
          : { statusReason: `Partly refunded: revenue reduced to ${remaining}` }),
    },
    denied ? { results, reason: reversed } : null,
  );
  return done;
}
