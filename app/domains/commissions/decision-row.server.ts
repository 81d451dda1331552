import type { ReferralApiError } from "../../platform/referral-api";
import { decide, type CommissionDeps, type DecideResult, type Decision } from "./decide.server";

/** One commission's line in what the merchant is shown: the Commissions page, its bulk run, a Flow action's run. */
export interface DecisionRow {
  uid: string;
  ok: boolean;
  /** Already approved or denied: deciding it again (a retried bulk job) changes nothing. */
  skipped: boolean;
  message: string;
}

const DONE_WORD = { approved: "Approved", denied: "Denied" } as const;

/** What one decision did; a refusal that is neither "not pending" nor "unknown" in the caller's words. */
export function decisionRow(uid: string, state: "approved" | "denied", result: DecideResult, serviceWords: (error: ReferralApiError) => string): DecisionRow {
  if (result.ok) return { uid, ok: true, skipped: false, message: DONE_WORD[state] };
  switch (result.refused) {
    case "not_pending":
      return { uid, ok: false, skipped: true, message: "Not changed: only pending commissions can be approved or denied, and this one already was." };
    case "not_found":
      return { uid, ok: false, skipped: false, message: "Not changed: the referral service doesn't know this commission." };
    case "service":
      return { uid, ok: false, skipped: false, message: `Not changed: ${serviceWords(result.error)}` };
  }
}

/**
 * A decision a job asks for (the bulk run, a Flow action). Refused
 * credentials and what is worth retrying are thrown, for the job's outcome
 * to wait or retry; anything else the service refused is the row's.
 */
export async function decideInJob(deps: CommissionDeps, decision: Decision & { service: "ask"; state: "approved" | "denied" }): Promise<DecisionRow> {
  const result = await decide(deps, decision);
  if (!result.ok && result.refused === "service" && (result.error.kind === "authentication" || result.error.retryable)) throw result.error;
  return decisionRow(decision.commission.commissionUid ?? "", decision.state, result, (error) => (error.errors.length > 0 ? error.errors.join(" ") : error.message));
}
