import { isIPv6 } from "node:net";
import { createLruMap } from "../../platform/cache/lru-map";

// A fixed-window counter per key, in this process's memory: enough to stop
// one browser from flooding an endpoint. Each app process counts on its own,
// so N processes let through at most N times the limit. The keys sit in an
// LRU: a flood of new keys pushes out the least recently seen, and never
// makes keys share one count (which would let a flood silence everyone).

export interface RateLimiter {
  /** Counts a request for `key`; false when the key is over its limit in this window. */
  allow(key: string, now?: number): boolean;
}

export function createRateLimiter(options: { limit: number; windowMs: number; maxKeys?: number }): RateLimiter {
  const counts = createLruMap<{ since: number; count: number }>(options.maxKeys ?? 50_000);
  return {
    allow(key, now = Date.now()) {
      const seen = counts.get(key);
      const current = seen && now - seen.since < options.windowMs ? seen : { since: now, count: 0 };
      current.count += 1;
      counts.set(key, current);
      return current.count <= options.limit;
    },
  };
}

/**
 * The address a limit counts by: an IPv4 address as it is (an IPv4-mapped
 * IPv6 address as its IPv4), an IPv6 address by its /64, the block one
 * customer's router hands out, so a client cannot step around the limit by
 * changing the last bits.
 */
export function addressGroup(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const hextets = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${hextets.slice(0, 4).map((h) => h.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** How many times one shop's limit an address may send across all shops. */
const ACROSS_SHOPS = 10;

/** The limits of one app process: `perMinute` signals from one address for one shop, ten times that across shops. */
export function pixelLimiters(perMinute: number): { perShopAddress: RateLimiter; perAddress: RateLimiter } {
  return {
    perShopAddress: createRateLimiter({ limit: perMinute, windowMs: 60_000 }),
    perAddress: createRateLimiter({ limit: perMinute * ACROSS_SHOPS, windowMs: 60_000 }),
  };
}
