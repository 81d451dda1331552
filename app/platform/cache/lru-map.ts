/**
 * A map that keeps at most `maxEntries` keys, the least recently used going
 * first. A Map remembers the order its keys were set in, so a key that is read
 * is set again at the end, and the first key is the least recently used.
 *
 * Its memory follows what it holds, not its bound: lru-cache, used before,
 * allocates arrays for all `maxEntries` when it is made (about 2.5 MB for
 * 100,000 keys), and every thread of the app process makes the caches it
 * imports, most of them nearly empty.
 */
export interface LruMap<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  keys(): IterableIterator<string>;
  clear(): void;
  readonly size: number;
}

export function createLruMap<V>(maxEntries: number): LruMap<V> {
  if (!(maxEntries >= 1)) throw new RangeError("maxEntries must be at least 1");
  const entries = new Map<string, V>();
  return {
    get(key) {
      if (!entries.has(key)) return undefined;
      const value = entries.get(key)!;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    delete: (key) => void entries.delete(key),
    keys: () => entries.keys(),
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}
