/**
 * Retry schedule: exponential from `baseMs`, capped at `capMs`, each delay
 * scaled by a random factor in [1 - jitter, 1]. With the defaults, 14 attempts
 * span about 18 to 24 hours before a job stops as failed.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  jitter: number;
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  baseMs: 60_000,
  capMs: 4 * 60 * 60_000,
  jitter: 0.25,
  maxAttempts: 14,
};

/** Delay before the attempt after `attempt` (1-based) failed. */
export function retryDelayMs(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random = Math.random): number {
  const exponential = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (1 - policy.jitter * random()));
}

/** The longest total time a job can spend retrying under a policy (no jitter). */
export function worstCaseRetryWindowMs(policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  let total = 0;
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++) total += retryDelayMs(attempt, policy, () => 0);
  return total;
}
