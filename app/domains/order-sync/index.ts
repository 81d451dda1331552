export { DEFAULT_RECONCILE_INTERVAL_MS, DEFAULT_RECONCILE_OVERLAP_MS, RECONCILE_JOB } from "./job-kinds";
export { orderSyncJobs } from "./jobs.server";
export type { OrderSyncJobContext } from "./jobs.server";
export { scheduleAllReconciles, scheduleReconcile } from "./reconcile.server";
