import { isReferralApiError } from "../referral-api";

/** What a job handler decided; the runner turns it into the job's next state. */
export type JobOutcome =
  | { type: "done" }
  /** Try again later; spends an attempt. `shopWaits`: the service asked the whole account to slow down (429), so the shop's other calls wait too. */
  | { type: "retry"; reason: string; afterMs?: number; shopWaits?: boolean }
  /** Stop for good; shown to the merchant with the reason. */
  | { type: "fail"; reason: string }
  /** The shop cannot send now (not connected, no campaign, refused credentials): hold its jobs, spend nothing, until it is fixed. */
  | { type: "pause"; reason: string; brokenCredentials?: boolean }
  /** Not ready yet (an order not recorded yet); spends no attempt. */
  | { type: "wait"; reason: string; afterMs: number };

export const done: JobOutcome = { type: "done" };

/** How long a shop's calls wait after a 429 that named no Retry-After. */
export const RATE_LIMIT_PAUSE_MS = 30_000;

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
  if (error.kind === "rate_limited") return { type: "retry", reason: error.message, afterMs: error.retryAfterMs ?? RATE_LIMIT_PAUSE_MS, shopWaits: true };
  if (error.retryable) return { type: "retry", reason: error.message, afterMs: error.retryAfterMs };
  return { type: "fail", reason: error.errors.length > 0 ? error.errors.join(" ") : error.message };
}
