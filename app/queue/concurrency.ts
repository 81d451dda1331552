/** The default share of one shop: enough calls in flight to keep a service that answers in 300 ms busy at 200 a second. */
export const DEFAULT_SHOP_CONCURRENCY = 64;
