import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createLruMap } from "../../../app/platform/cache/lru-map";
import { createTtlCache } from "../../../app/platform/cache/ttl-cache";
import { createRateLimiter } from "../../../app/domains/storefront/rate-limit";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** The heap's live bytes, after a full collection. */
function liveBytes(): number {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

describe("LruMap", () => {
  it("drops the least recently used key beyond its bound; a read makes a key recent", () => {
    const map = createLruMap<number>(3);
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3);
    expect(map.get("a")).toBe(1);
    map.set("d", 4);
    expect([...map.keys()]).toEqual(["c", "a", "d"]);
    expect(map.get("b")).toBeUndefined();
    map.set("c", 30);
    map.set("e", 5);
    expect([...map.keys()]).toEqual(["d", "c", "e"]);
    expect(map.size).toBe(3);
    map.delete("c");
    expect(map.get("c")).toBeUndefined();
    map.clear();
    expect(map.size).toBe(0);
  });

  it("keeps a value that is undefined-like apart from a missing key", () => {
    const map = createLruMap<number | null>(2);
    map.set("zero", 0);
    map.set("none", null);
    expect(map.get("zero")).toBe(0);
    expect(map.get("none")).toBeNull();
    expect(map.get("missing")).toBeUndefined();
  });

  it("costs what it holds, not its bound: the app's caches and rate limits made empty take next to no memory", () => {
    // GIVEN caches and limiters with the bounds the app uses (100,000 shops, 50,000 codes or addresses)
    const before = liveBytes();
    const made = [
      ...[100_000, 100_000, 50_000, 20_000].map((maxEntries) => createTtlCache<string>({ ttlMs: 60_000, maxEntries })),
      createRateLimiter({ limit: 10, windowMs: 60_000 }),
      createRateLimiter({ limit: 10, windowMs: 60_000 }),
    ];
    // THEN together they hold far less than one byte per key of their bounds (lru-cache held about 30 bytes a key at once)
    const grew = liveBytes() - before;
    expect(made).toHaveLength(6);
    expect(grew).toBeLessThan(100_000);
  });
});
