import { createTtlCache } from "../../platform/cache/ttl-cache";

// Whether a shop has the app installed (its offline session exists), asked
// of every order webhook before its body is read and of every queued
// delivery. The answer is kept: a shop that has the app for a minute, one
// that has not for a few seconds, so a shop that has just installed is
// refused only briefly (and Shopify delivers a refused webhook again). A
// shop that uninstalls may stay known for a minute: its deliveries are then
// read, and the intake stores nothing for a shop without a session. The
// process that sees a shop install forgets what it knew of it at once.

/** Whether the shop's offline session exists; may throw when the database cannot answer. */
export type ShopCheck = (shop: string) => Promise<boolean>;

export const INSTALLED_KEPT_MS = 60_000;
export const NOT_INSTALLED_KEPT_MS = 5_000;

/** A cached check that can forget what it knows of a shop (its install, seen by this process). */
export type CachedShopCheck = ShopCheck & { forget(shop: string): void };

export function cachedShopCheck(lookup: ShopCheck, now?: () => number): CachedShopCheck {
  const installed = createTtlCache<boolean>({ ttlMs: INSTALLED_KEPT_MS, maxEntries: 100_000, now });
  // Anyone can name any shop: this one is kept small, the least recently named going first.
  const notInstalled = createTtlCache<boolean>({ ttlMs: NOT_INSTALLED_KEPT_MS, maxEntries: 10_000, now });
  const check: ShopCheck = async (shop) => {
    if (installed.peek(shop)) return true;
    if (notInstalled.peek(shop) === false) return false;
    // Deliveries for one shop at the same moment share one look-up.
    const has = await installed.getOrLoad(shop, () => lookup(shop), (answer) => answer);
    if (!has) notInstalled.set(shop, false);
    return has;
  };
  return Object.assign(check, {
    forget(shop: string) {
      installed.delete(shop);
      notInstalled.delete(shop);
    },
  });
}
