import { isReferralApiError } from "../../platform/referral-api";
import type { JobOutcome } from "../../platform/queue/outcome";

/** The cause of a pause that marks the shop's connection broken (see the worker's onShopPaused in app/wiring). */
export const CREDENTIALS_REFUSED = "credentials_refused";

/** How long a shop's calls wait after a 429 that named no Retry-After. */
export const RATE_LIMIT_PAUSE_MS = 30_000;

/** Jobs of kinds that call the referral service share the shop's account and its rate limit. */
export const REFERRAL_SERVICE = "referral-service";

/** The outcome a failed referral-service call leads to, by the error's kind. */
export function outcomeOfServiceError(error: unknown): JobOutcome {
  if (!isReferralApiError(error)) {
    return { type: "retry", reason: error instanceof Error ? error.message : String(error) };
  }
  if (error.kind === "authentication") {
    return { type: "pause", cause: CREDENTIALS_REFUSED, reason: "The referral service refused the shop's credentials. Enter new ones in Settings." };
  }
  if (error.kind === "rate_limited") return { type: "retry", reason: error.message, afterMs: error.retryAfterMs ?? RATE_LIMIT_PAUSE_MS, shopWaits: true };
  if (error.retryable) return { type: "retry", reason: error.message, afterMs: error.retryAfterMs };
  return { type: "fail", reason: error.errors.length > 0 ? error.errors.join(" ") : error.message };
}
