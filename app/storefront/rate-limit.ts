// A fixed-window counter per key, in this process's memory: enough to stop
// one browser or one shop from flooding an endpoint. Each app process counts
// on its own, so N processes let through at most N times the limit.

const OVERFLOW = "\u0000overflow";

export interface RateLimiter {
  /** Counts a request for `key`; false when the key is over its limit in this window. */
  allow(key: string, now?: number): boolean;
}

export function createRateLimiter(options: { limit: number; windowMs: number; maxKeys?: number }): RateLimiter {
  const maxKeys = options.maxKeys ?? 50_000;
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    allow(key, now = Date.now()) {
      if (now - windowStart >= options.windowMs) {
        windowStart = now;
        counts = new Map();
      }
      // A flood of distinct keys cannot grow the map without bound: past the cap, new keys share one count.
      const slot = counts.has(key) || counts.size < maxKeys ? key : OVERFLOW;
      const count = (counts.get(slot) ?? 0) + 1;
      counts.set(slot, count);
      return count <= options.limit;
    },
  };
}
