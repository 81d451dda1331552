import type { z } from "zod";
import { jobKey } from "../queue/job-row";
import { ORDER_JOB_PAYLOADS } from "./job-kinds";
import { findOrderRecord, parseJsonObject, updateOrderRecord, type CampaignResults } from "./order-records.server";
import type { JobContext } from "../wiring/job-context";
import { done, type JobOutcome } from "../queue/outcome";
import { needsReview, reviseCommissions } from "./reversal.server";

const payload = ORDER_JOB_PAYLOADS["order.cancel"];
type Payload = z.infer<typeof payload>;

const CANCELLED_BEFORE_RECORDING = "Order cancelled before it was recorded";

async function handle(ctx: JobContext, shop: string, { orderId }: Payload): Promise<JobOutcome> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (!record || (record.status !== "queued" && record.status !== "failed" && record.status !== "recorded")) return done;

  if (record.status === "queued" || record.status === "failed") {
    // Not at the service yet: stop the recording instead of creating and denying.
    const stopped = await ctx.db.job.updateMany({
      where: { key: jobKey(shop, "order.record", orderId), status: { in: ["queued", "failed", "paused"] } },
      data: { status: "done", lastError: CANCELLED_BEFORE_RECORDING },
    });
    const stillRunning = await ctx.db.job.count({ where: { key: jobKey(shop, "order.record", orderId), status: "running" } });
    if (stopped.count === 0 && stillRunning > 0) return { type: "wait", reason: "The order is being recorded", afterMs: 5_000 };
    if (stopped.count > 0 || record.status === "failed") {
      await updateOrderRecord(ctx.db, shop, orderId, { status: "skipped", statusReason: CANCELLED_BEFORE_RECORDING });
      return done;
    }
    return { type: "wait", reason: "The order is being recorded", afterMs: 5_000 };
  }

  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { type: "pause", reason: connection.reason };
  const results = parseJsonObject<CampaignResults>(record.results);
  const interrupted = await reviseCommissions(connection.client, orderId, results, { status: "denied" }, "denied");
  await updateOrderRecord(ctx.db, shop, orderId, { results: JSON.stringify(results) });
  if (interrupted) return interrupted;

  const review = needsReview(results);
  await updateOrderRecord(ctx.db, shop, orderId, {
    status: review.length > 0 ? "needs_review" : "reversed",
    statusReason:
      review.length > 0
        ? `Order cancelled, but the commission in campaign ${review.join(", ")} was already approved or denied; the service cannot change it. Review it in Commissions.`
        : "Order cancelled: commission denied",
    commissionState: review.length > 0 ? record.commissionState : "denied",
  });
  return done;
}

export const cancelOrderJob = { kind: "order.cancel", payload, handle } as const;
