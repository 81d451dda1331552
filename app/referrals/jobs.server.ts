import { REFERRAL_SERVICE } from "../connection/service-outcome";
import { done } from "../queue/outcome";
import { defineJob, type QueueContext } from "../queue/registry";
import { cancelOrder } from "./cancel-order.server";
import { CANCEL_ORDER_JOB, PIXEL_MATCH_JOB, RECORD_ORDER_JOB, REFUND_ORDER_JOB } from "./job-kinds";
import { matchPixelSignal } from "./pixel-signals.server";
import { noteRecordingAttempt, noteRecordingFailed, recordOrder } from "./record-order.server";
import { refundOrder } from "./refund-order.server";

export type { OrderJobContext } from "./order-job-context";

/** The order's jobs: recording it, and the changes that follow (cancellation, refunds, a late pixel signal). */
export const referralJobs = [
  defineJob(RECORD_ORDER_JOB, { rateLimitGroup: REFERRAL_SERVICE, handle: recordOrder, onFailed: noteRecordingFailed, onAttempt: noteRecordingAttempt }),
  defineJob(CANCEL_ORDER_JOB, { rateLimitGroup: REFERRAL_SERVICE, handle: cancelOrder }),
  defineJob(REFUND_ORDER_JOB, { rateLimitGroup: REFERRAL_SERVICE, handle: refundOrder }),
  /** A pixel signal looking for its order: re-opens it if it was judged not referred, else looks again later (spending no attempt). */
  defineJob(PIXEL_MATCH_JOB, {
    async handle(ctx: QueueContext, shop, match) {
      const wait = await matchPixelSignal(ctx.db, shop, match, ctx.now());
      return wait === null ? done : { type: "wait", reason: "The order of this checkout is not settled yet", afterMs: wait };
    },
  }),
];
