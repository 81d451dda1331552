export { commissionStateAfter, commissionStateMove, moveCommissionState } from "./commission-state";
export type { CommissionState } from "./commission-state";
export { adminJobs } from "./jobs.server";
export type { AdminJobContext } from "./jobs.server";
