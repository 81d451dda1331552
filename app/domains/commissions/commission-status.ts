import type { CommissionStatus } from "../../platform/referral-api";

/** The states a commission can be filtered by (client-safe: pages use it too). */
export const COMMISSION_STATUSES = ["pending", "approved", "denied"] as const satisfies readonly CommissionStatus[];
