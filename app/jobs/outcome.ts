import { isReferralApiError } from "../referral-api";

/** What a job handler decided; the runner turns it into the job's next state. */
export type JobOutcome =
  | { type: "done" }
  /** Try again later; spends an attempt. */
  | { type: "retry"; reason: string; afterMs?: number }
  /** Stop for good; shown to the merchant with the reason. */
  | { type: "fail"; reason: string }
  /** The shop cannot send now (not connected, no campaign, refused credentials): hold its jobs, spend nothing, until it is fixed. */
  | { type: "pause"; reason: string; brokenCredentials?: boolean }
  /** Not ready yet (an order not recorded yet); spends no attempt. */
  | { type: "wait"; reason: string; afterMs: number };

export const done: JobOutcome = { type: "done" };

/** The outcome a failed referral-service call leads to, by the error's kind. */
export function outcomeOfServiceError(error: unknown): JobOutcome {
  if (!isReferralApiError(error)) {
    return { type: "retry", reason: error instanceof Error ? error.message : String(error) };
  }
  if (error.kind === "authentication") {
    return {
      type: "pause",
      brokenCredentials: true,
      reason: "The referral service refused the shop's credentials. Enter new ones in Settings.",
    };
  }
  if (error.retryable) return { type: "retry", reason: error.message, afterMs: error.retryAfterMs };
  return { type: "fail", reason: error.errors.length > 0 ? error.errors.join(" ") : error.message };
}
