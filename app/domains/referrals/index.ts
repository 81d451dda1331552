export { CodeDirectory } from "./code-directory.server";
export { GUARD_WINDOW_MS } from "./guard-facts.server";
export { CANCEL_ORDER_JOB, ORDER_CHANGE_KINDS, REFUND_ORDER_JOB, keysOfOrderJobs, refundSubject } from "./job-kinds";
export { referralJobs } from "./jobs.server";
export type { OrderJobContext } from "./jobs.server";
export { repairOrderChanges } from "./order-changes.server";
export type { IntakeResult, OrderSource, OrderWebhook } from "./order-intake";
export { orderRecordIdsByEmail, skipQueuedOrders } from "./order-records.server";
export { PIXEL_SIGNAL_TTL_MS, sweepPixelSignals } from "./pixel-signals.server";
