/** The default share of one shop: enough calls in flight to keep a service that answers in 300 ms busy at 400 a second. */
export const DEFAULT_SHOP_CONCURRENCY = 128;

/**
 * How long a claimed job is held without a renewal: short, so that a killed
 * worker's job is taken again within seconds; a running job's worker renews
 * it every third of this.
 */
export const DEFAULT_LEASE_MS = 15_000;
