import { type AmbassadorResult, normaliseAmbassadorResult } from "../normalise/ambassador-result";
import { encodeParams } from "../params";
import type { OperationDeps } from "./deps";
import type { CreationFlags, FirstCustomFields, SandboxFlag } from "./param-groups";

export interface GetAmbassadorStatsParams
  extends FirstCustomFields,
    Omit<CreationFlags, "addToGroupId">,
    SandboxFlag {
  email: string;
  uid?: string;
  firstName?: string;
  lastName?: string;
  /** Inclusive; a Date is sent as YYYY-MM-DD (UTC). */
  startDate?: Date | string;
  /** Inclusive. */
  endDate?: Date | string;
}

/**
 * GET ambassador/stats: the ambassador with `statsSummary` and, per campaign
 * link, `stats` and `uniqueReferrals`.
 */
export function getAmbassadorStatsOperation({ transport }: OperationDeps) {
  return function getAmbassadorStats(params: GetAmbassadorStatsParams): Promise<AmbassadorResult> {
    return transport.request({
      operation: "ambassador/stats",
      method: "GET",
      params: encodeParams(params),
      normalise: normaliseAmbassadorResult,
    });
  };
}
