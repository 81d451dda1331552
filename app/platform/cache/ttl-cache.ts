import { createLruMap } from "./lru-map";

/**
 * The app's in-process cache whose entries live for a fixed time, kept in
 * an LruMap (least recently used first out beyond `maxEntries`).
 *
 * - `getOrLoad` answers a fresh entry at once; otherwise it runs `load`, and
 *   callers that ask for the same key while that load runs share its promise,
 *   so a burst of views makes one upstream request.
 * - Only answers that `keep` accepts are stored; a failed load stores nothing,
 *   and neither does a load that a `delete` overtook.
 */
export interface TtlCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

export interface TtlCache<T> {
  getOrLoad(key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>;
  /** The fresh value of a key, if any. */
  peek(key: string): T | undefined;
  set(key: string, value: T): void;
  delete(key: string): void;
  /** Deletes every key that starts with the prefix. */
  deletePrefix(prefix: string): void;
  clear(): void;
  readonly size: number;
}

/** An entry and when it stops being fresh (the LruMap keeps the entries and their order; the clock is the caller's). */
type Entry<T> = { value: T; expiresAt: number };

export function createTtlCache<T>(options: TtlCacheOptions): TtlCache<T> {
  const { ttlMs, maxEntries = 10_000, now = () => Date.now() } = options;
  if (!(ttlMs > 0)) throw new RangeError("ttlMs must be positive");
  const entries = createLruMap<Entry<T>>(maxEntries);
  const loading = new Map<string, Promise<T>>();

  function fresh(key: string): Entry<T> | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now()) return entry;
    entries.delete(key);
    return undefined;
  }
  const store = (key: string, value: T) => void entries.set(key, { value, expiresAt: now() + ttlMs });

  return {
    getOrLoad(key, load, keep = () => true) {
      const entry = fresh(key);
      if (entry) return Promise.resolve(entry.value);
      const running = loading.get(key);
      if (running) return running;
      const run = async (self: Promise<T>): Promise<T> => {
        try {
          const value = await load();
          // A delete while the load ran wins: its answer is not stored.
          if (loading.get(key) === self && keep(value)) store(key, value);
          return value;
        } finally {
          if (loading.get(key) === self) loading.delete(key);
        }
      };
      // The load starts a tick later, once the promise is known to the map.
      const promise: Promise<T> = Promise.resolve().then(() => run(promise));
      loading.set(key, promise);
      return promise;
    },
    peek: (key) => fresh(key)?.value,
    set: store,
    delete(key) {
      entries.delete(key);
      loading.delete(key);
    },
    deletePrefix(prefix) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
      for (const key of [...loading.keys()]) if (key.startsWith(prefix)) loading.delete(key);
    },
    clear() {
      entries.clear();
      loading.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
