import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";
import { getEnv } from "./env.server";
import { shopifyLibraryLog } from "./logger.server";

/** The Admin API version of every call and of the webhook subscriptions in shopify.app.toml. */
export const API_VERSION = ApiVersion.October26;

const env = getEnv();

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

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: API_VERSION,
  scopes: env.SCOPES.split(","),
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(prisma),
  distribution: AppDistribution.AppStore,
  // Through the app's pino, whose redaction takes out tokens, emails and customer ids.
  logger: { level: SHOPIFY_LOG_LEVEL[env.LOG_LEVEL], log: shopifyLibraryLog },
  future: { unstable_newEmbeddedAuthStrategy: true },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
