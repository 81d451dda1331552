import "@shopify/shopify-app-remix/adapters/node";
import { shopifyApi } from "@shopify/shopify-api";
import { setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";
import { credentialsKeys, getEnv } from "./env.server";
import { logger, shopifyLibraryLog } from "../platform/logger/logger.server";
import { fetchAtAdminOrigin } from "../platform/shopify-admin/admin-api-origin";
import { offlineTokens } from "../platform/shopify-admin/offline-token.server";
import { SealedSessionStorage } from "../platform/shopify-admin/sealed-session-storage.server";

/** The Admin API version of every call and of the webhook subscriptions in shopify.app.toml. */
export const API_VERSION = ApiVersion.October26;

const env = getEnv();

/** Offline tokens that expire after an hour, with a refresh token (required of public apps from 2027). */
const EXPIRING_OFFLINE_TOKENS = true;

/** Shopify's library logs at the app's LOG_LEVEL (it knows four levels). */
const SHOPIFY_LOG_LEVEL: Record<typeof env.LOG_LEVEL, LogSeverity> = {
  trace: LogSeverity.Debug,
  debug: LogSeverity.Debug,
  info: LogSeverity.Info,
  warn: LogSeverity.Warning,
  error: LogSeverity.Error,
  fatal: LogSeverity.Error,
  silent: LogSeverity.Error,
};

// Development only: the library's calls to the shop's admin (Admin API, token endpoint) go to the local stand-in.
// Production refuses SHOPIFY_ADMIN_API_ORIGIN (env.server.ts), so there every request passes as it is.
if (env.NODE_ENV !== "production") setAbstractFetchFunc(fetchAtAdminOrigin(() => getEnv().SHOPIFY_ADMIN_API_ORIGIN) as typeof fetch);

/** Shopify's tokens are sealed at rest with CREDENTIALS_KEY, like the service token (docs/decisions/015). */
const sessionStorage = new SealedSessionStorage(new PrismaSessionStorage(prisma), {
  credentialsKey: credentialsKeys(env),
  onUnreadable: (sessionId, shop) => logger.error({ shop, sessionId }, "a stored Shopify session cannot be opened with CREDENTIALS_KEY; it counts as missing until the merchant opens the app"),
});

type InstallHandler = (shop: string) => Promise<void>;
let installHandler: InstallHandler | undefined;

/**
 * What runs after each authentication that stored a new offline token (an
 * install, a reinstall, a new token after the last one expired): the wiring
 * hands it over when the process starts (app/wiring/install.server.ts).
 */
export function handleInstallsWith(handler: InstallHandler): void {
  installHandler = handler;
}

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: API_VERSION,
  scopes: env.SCOPES.split(","),
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage,
  distribution: AppDistribution.AppStore,
  // Through the app's pino, whose redaction takes out tokens, emails and customer ids.
  logger: { level: SHOPIFY_LOG_LEVEL[env.LOG_LEVEL], log: shopifyLibraryLog },
  future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: EXPIRING_OFFLINE_TOKENS },
  hooks: {
    afterAuth: async ({ session }) => {
      if (!installHandler) throw new Error("No install handler: the app process was not started (startAppProcess)");
      await installHandler(session.shop);
    },
  },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
});

// shopifyApp() keeps its own shopify-api instance to itself; the token grants of background calls use one of the same app.
const appUrl = new URL(env.SHOPIFY_APP_URL);
const tokenGrants = shopifyApi({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: API_VERSION,
  scopes: env.SCOPES.split(","),
  hostName: appUrl.host,
  hostScheme: appUrl.protocol === "http:" ? "http" : "https",
  isEmbeddedApp: true,
  logger: { level: SHOPIFY_LOG_LEVEL[env.LOG_LEVEL], log: shopifyLibraryLog },
  _logDisabledFutureFlags: false,
}).auth;

/** A shop's offline session with a token good for a few minutes at least, for the calls the app makes on its own. */
export const readyOfflineToken = offlineTokens({
  storage: sessionStorage,
  refresh: async (shop, refreshToken) => (await tokenGrants.refreshToken({ shop, refreshToken })).session,
  migrate: async (shop, nonExpiringOfflineAccessToken) => (await tokenGrants.migrateToExpiringToken({ shop, nonExpiringOfflineAccessToken })).session,
  expiring: EXPIRING_OFFLINE_TOKENS,
  now: () => Date.now(),
  onMigrationFailed: (shop, err) => logger.warn({ shop, err }, "the shop's non-expiring token could not be exchanged for an expiring one yet; it is used as it is"),
});

type WebhookContext = Awaited<ReturnType<typeof shopify.authenticate.webhook>>;

/**
 * authenticate.webhook, except that a delivery whose signature is good is not
 * refused because the shop's expired token could not be refreshed: Shopify
 * revokes the app's tokens before app/uninstalled, and the library, which
 * refreshes the session of every webhook, would answer it 500 for two days.
 * The signature is checked before the session is read, so a failure there
 * (a 500 Response or Shopify's refusal) means a good delivery; it is answered
 * as for a shop without a session, from the headers the library reads too.
 */
async function authenticateWebhook(request: Request): Promise<WebhookContext> {
  const copy = request.clone();
  try {
    return await shopify.authenticate.webhook(request);
  } catch (thrown) {
    const refreshFailed = (thrown instanceof Response && thrown.status === 500) || (thrown as { response?: { code?: unknown } } | null)?.response?.code !== undefined;
    if (!refreshFailed) throw thrown;
    const header = (name: string) => copy.headers.get(name) ?? "";
    const shop = header("X-Shopify-Shop-Domain");
    logger.warn({ shop, topic: header("X-Shopify-Topic") }, "a webhook's shop token could not be refreshed; handled as for a shop without a session");
    return {
      apiVersion: header("X-Shopify-API-Version"),
      shop,
      topic: header("X-Shopify-Topic").toUpperCase().replace(/[/.]/g, "_"),
      webhookId: header("X-Shopify-Webhook-Id"),
      payload: JSON.parse(await copy.text()),
      session: undefined,
      admin: undefined,
      webhookType: "webhooks",
      triggeredAt: header("X-Shopify-Triggered-At"),
      eventId: header("X-Shopify-Event-Id"),
    } as unknown as WebhookContext;
  }
}

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = { ...shopify.authenticate, webhook: authenticateWebhook };
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export { sessionStorage };
