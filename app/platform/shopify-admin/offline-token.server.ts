import type { Session } from "@shopify/shopify-api";
import type { SessionStore } from "./sealed-session-storage.server";

// A shop's offline access token, made ready for a call the app makes on its
// own (a job, an extension's request): Shopify's expiring offline tokens live
// an hour, so one about to expire is refreshed first, and a non-expiring one
// from before the app asked for expiring tokens is exchanged for an expiring
// pair (Shopify stops accepting non-expiring tokens of public apps in 2027).
// The library would refresh inside unauthenticated.admin too, but it turns
// every failure into a bare 500; here a refusal (the merchant must open the
// app again) is told apart from a failure worth retrying. Refreshes of one
// shop share one call in this process; two processes that refresh at once
// each get a good pair, and the last one stored is used from then on
// (Shopify keeps a used refresh token good until its replacement is used).

/** After a failed exchange of a non-expiring token, the next attempt waits this long (the old token works meanwhile). */
export const MIGRATION_RETRY_MS = 10 * 60_000;

/** Within this much of its expiry a token is refreshed first (the library's own margin). */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export interface OfflineTokenDeps {
  storage: Pick<SessionStore, "loadSession" | "storeSession">;
  /** The library's refresh grant (shopify.api.auth.refreshToken). */
  refresh(shop: string, refreshToken: string): Promise<Session>;
  /** The library's exchange of a non-expiring offline token for an expiring pair (shopify.api.auth.migrateToExpiringToken). */
  migrate(shop: string, nonExpiringToken: string): Promise<Session>;
  /** Whether the app asks for expiring offline tokens. */
  expiring: boolean;
  now(): number;
  onMigrationFailed?(shop: string, error: unknown): void;
}

export type OfflineToken =
  | { ok: true; session: Session; renewed: "refreshed" | "migrated" | null }
  | { ok: false; cause: "not_installed" | "refused"; reason: string };

export const TOKEN_REFUSED =
  "Shopify no longer accepts the app's access to the shop (its refresh token was refused); opening the app in the Shopify admin renews it.";

/** Whether Shopify's token endpoint refused the grant for good (4xx), as opposed to not answering. */
export function isRefusal(error: unknown): boolean {
  const code = (error as { response?: { code?: unknown } } | null)?.response?.code;
  return typeof code === "number" && code >= 400 && code < 500 && code !== 429;
}

export function offlineTokens(deps: OfflineTokenDeps) {
  const inFlight = new Map<string, Promise<OfflineToken>>();
  const migrationFailedAt = new Map<string, number>();

  async function ready(shop: string, offlineId: string): Promise<OfflineToken> {
    const session = await deps.storage.loadSession(offlineId);
    if (!session?.accessToken) return { ok: false, cause: "not_installed", reason: "The app is not installed on the shop (no access token)." };
    if (!deps.expiring) return { ok: true, session, renewed: null };
    if (!session.expires) return migrated(shop, session);
    if (session.expires.getTime() - deps.now() > REFRESH_MARGIN_MS) return { ok: true, session, renewed: null };
    if (!session.refreshToken) return { ok: false, cause: "refused", reason: TOKEN_REFUSED };
    let fresh: Session;
    try {
      fresh = await deps.refresh(shop, session.refreshToken);
    } catch (error) {
      if (isRefusal(error)) return { ok: false, cause: "refused", reason: TOKEN_REFUSED };
      throw error;
    }
    await deps.storage.storeSession(fresh);
    return { ok: true, session: fresh, renewed: "refreshed" };
  }

  /** A non-expiring token exchanged for an expiring pair; kept as it is while Shopify cannot be asked (it still works until 2027). */
  async function migrated(shop: string, session: Session): Promise<OfflineToken> {
    const failedAt = migrationFailedAt.get(shop);
    if (failedAt !== undefined && deps.now() - failedAt < MIGRATION_RETRY_MS) return { ok: true, session, renewed: null };
    try {
      const fresh = await deps.migrate(shop, session.accessToken!);
      await deps.storage.storeSession(fresh);
      migrationFailedAt.delete(shop);
      return { ok: true, session: fresh, renewed: "migrated" };
    } catch (error) {
      migrationFailedAt.set(shop, deps.now());
      deps.onMigrationFailed?.(shop, error);
      // Another process may have exchanged it meanwhile, and stored the pair.
      const stored = await deps.storage.loadSession(session.id);
      return { ok: true, session: stored?.expires ? stored : session, renewed: null };
    }
  }

  /** The shop's offline session, its token good for a few minutes at least; one look-up per shop at a time in this process. */
  return function readyOfflineToken(shop: string, offlineId: string): Promise<OfflineToken> {
    const running = inFlight.get(shop);
    if (running) return running;
    const started = ready(shop, offlineId).finally(() => inFlight.delete(shop));
    inFlight.set(shop, started);
    return started;
  };
}
