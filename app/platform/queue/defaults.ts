/** Jobs one worker runs side by side by default: most of each job's time is a wait on the referral service. */
export const DEFAULT_WORKER_CONCURRENCY = 64;

/** The default share of one shop: enough calls in flight to keep a service that answers in 300 ms busy at 400 a second. */
export const DEFAULT_SHOP_CONCURRENCY = 128;

/**
 * How long a claimed job is held without a renewal: short, so that a killed
 * worker's job is taken again within seconds; a running job's worker renews
 * it every third of this.
 */
export const DEFAULT_LEASE_MS = 15_000;

/**
 * During a burst of order webhooks a worker keeps this many jobs running:
 * the service's answers to a few jobs cost little CPU, and the claim takes
 * shops in turn, so another shop's order is among the next taken.
 */
export const DEFAULT_BURST_CONCURRENCY = 4;

/** A worker holds back at most this long in a row, then claims freely for as long. */
export const DEFAULT_MAX_YIELD_MS = 5_000;
