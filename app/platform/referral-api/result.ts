import { isDuplicateTransaction, isReferralApiError, type ReferralApiError } from "./errors";

export type Settled<T> = { ok: true; value: T } | { ok: false; error: ReferralApiError };

/**
 * Turns a call into a result object, so a job handler decides with
 * `error.retryable` whether to retry or stop. Errors that are not
 * ReferralApiErrors (bugs) are rethrown.
 */
export async function settle<T>(call: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    if (isReferralApiError(error)) return { ok: false, error };
    throw error;
  }
}

export type RecordOutcome<T> = { duplicate: false; value: T } | { duplicate: true; error: ReferralApiError };

/**
 * For idempotent retries (recordEvent, addCommission with a transaction_uid):
 * "this transaction already exists" counts as success. Other errors are thrown.
 */
export async function acceptDuplicate<T>(call: Promise<T>): Promise<RecordOutcome<T>> {
  try {
    return { duplicate: false, value: await call };
  } catch (error) {
    if (isDuplicateTransaction(error)) return { duplicate: true, error };
    throw error;
  }
}
