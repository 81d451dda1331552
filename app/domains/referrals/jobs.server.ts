import { REFERRAL_SERVICE } from "../connection";
import { done } from "../../platform/queue/outcome";
import { defineJob, type QueueContext } from "../../platform/queue/registry";
import { cancelOrder } from "./cancel-order.server";
import { CANCEL_ORDER_JOB, PIXEL_MATCH_JOB, PIXEL_SWEEP_JOB, RECORD_ORDER_JOB, REFUND_ORDER_JOB, REVIEW_APPROVE_JOB } from "./job-kinds";
import { joinPixelSignal, sweepPixelSignals } from "./pixel-signals.server";
import { noteRecordingAttempt, noteRecordingFailed, recordOrder } from "./record-order.server";
import { refundOrder } from "./refund-order.server";
import { approveAfterReview } from "./review-window.server";

export type { OrderJobContext } from "./order-job-context";

/** The order's jobs: recording it, and the changes that follow (cancellation, refunds, a late pixel signal). */
export const referralJobs = [
  defineJob(RECORD_ORDER_JOB, { rateLimitGroup: REFERRAL_SERVICE, handle: recordOrder, onFailed: noteRecordingFailed, onAttempt: noteRecordingAttempt }),
  defineJob(CANCEL_ORDER_JOB, { rateLimitGroup: REFERRAL_SERVICE, handle: cancelOrder }),
  defineJob(REFUND_ORDER_JOB, { rateLimitGroup: REFERRAL_SERVICE, handle: refundOrder }),
  defineJob(REVIEW_APPROVE_JOB, { rateLimitGroup: REFERRAL_SERVICE, handle: approveAfterReview }),
  defineJob(PIXEL_SWEEP_JOB, {
    async handle(ctx: QueueContext, shop, _payload, job) {
      const swept = await sweepPixelSignals(ctx.db, shop, ctx.now(), { bookedAt: job.createdAt });
      if (swept.reopened > 0 || swept.ended > 0) ctx.logger.info({ shop, ...swept }, "pixel signals swept");
      return done;
    },
  }),
  /** A pixel signal looking for its order, queued before signals were joined by the shop's sweep: one join, then done. */
  defineJob(PIXEL_MATCH_JOB, {
    async handle(ctx: QueueContext, shop, { checkoutToken, orderId, receivedAt }) {
      await joinPixelSignal(ctx.db, shop, { checkoutToken, orderId, receivedAt: new Date(receivedAt) }, ctx.now());
      return done;
    },
  }),
];
