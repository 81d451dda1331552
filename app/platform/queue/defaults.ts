/**
 * Jobs one worker runs side by side by default; most of a job's time is a
 * wait on the referral service. A worker process (`npm run worker`) has its
 * process to itself; the app's own worker thread shares its process's memory
 * and cores with the answers to webhooks, and runs fewer.
 */
export const DEFAULT_WORKER_CONCURRENCY = { process: 96, thread: 64 } as const;

/**
 * The default share of one shop, across every worker: two worker processes'
 * jobs. A job holds its place for its database work as well as its call (at
 * the bench's load, about 0.5 s for a call of 0.3 s), so 192 jobs keep about
 * 115 calls in flight: a service that answers in 300 ms busy at up to 380 a second.
 */
export const DEFAULT_SHOP_CONCURRENCY = 192;

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
