import { isReferralApiError, type ReferralApiError, type ReferralApiErrorKind } from "../../platform/referral-api";
import { SETTINGS_ACTION, type MerchantError } from "./merchant-error";

/** How long an admin page waits for the service before telling the merchant it is slow. */
export const ADMIN_TIMEOUT_MS = 8_000;

const seconds = (ms: number) => `${Math.round(ms / 1000)} seconds`;

type Words = Omit<MerchantError, "details" | "retryable">;

/** The one place a service failure becomes words a merchant can act on. */
const WORDS: Record<ReferralApiErrorKind, (timeoutMs: number) => Words> = {
  authentication: () => ({
    title: "The referral service refused your credentials",
    message:
      "Your username or API token is no longer accepted. Enter the current ones from your referral program account in Settings.",
    action: { ...SETTINGS_ACTION, content: "Update credentials" },
  }),
  network: () => ({
    title: "The referral service can't be reached",
    message:
      "Nothing answered at the service's address. Check the base URL in Settings, or try again in a few minutes if the service is down.",
    action: SETTINGS_ACTION,
  }),
  timeout: (timeoutMs) => ({
    title: "The referral service is slow to answer",
    message: `It didn't answer within ${seconds(timeoutMs)}. It may be busy; reload the page in a minute.`,
  }),
  rate_limited: () => ({
    title: "Too many requests to the referral service",
    message: "The service asked us to slow down. Wait a minute, then try again.",
  }),
  server: () => ({
    title: "The referral service had a problem",
    message:
      "It answered with an error on its side. Try again in a few minutes; if it keeps happening, contact the service's support.",
  }),
  not_found: () => ({
    title: "Not found at the referral service",
    message: "The service doesn't know this item. It may have been removed, or it belongs to another program.",
  }),
  invalid_request: () => ({
    title: "The referral service didn't accept the request",
    message: "Check the values you entered and try again.",
  }),
  duplicate_transaction: () => ({
    title: "Already recorded",
    message: "The referral service already has this order, so nothing was counted twice.",
  }),
};

export function describeServiceError(error: ReferralApiError, timeoutMs = ADMIN_TIMEOUT_MS): MerchantError {
  const words = WORDS[error.kind](timeoutMs);
  return { ...words, retryable: error.retryable, ...(error.errors.length > 0 ? { details: error.errors } : {}) };
}

/**
 * Runs a service call for a page. A service failure comes back as a
 * MerchantError; anything else is a bug and is thrown on.
 */
export async function attempt<T>(
  call: () => Promise<T>,
  timeoutMs = ADMIN_TIMEOUT_MS
): Promise<{ ok: true; value: T } | { ok: false; error: MerchantError; cause: ReferralApiError }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (isReferralApiError(error)) return { ok: false, error: describeServiceError(error, timeoutMs), cause: error };
    throw error;
  }
}
