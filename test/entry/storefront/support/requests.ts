// Requests as Shopify sends them to the app: app proxy calls (signed query),
// customer account extension calls (session token), built with Shopify's test
// helpers, and the web pixel's unsigned post.
import { createHmac } from "node:crypto";
import { getJwt, RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { sampleCheckoutToken } from "../../../support/orders";

export const STORE = "referral-demo";
export const SHOP = `${STORE}.myshopify.com`;
/** The customer account extension's origin (a web worker on Shopify's CDN). */
export const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";

const appUrl = () => process.env.SHOPIFY_APP_URL!;
const secret = () => process.env.SHOPIFY_API_SECRET!;

export interface ProxyOptions {
  /** Sent as logged_in_customer_id; "" = a guest, undefined = left out. */
  customerId?: string;
  /** Further query parameters, signed like the rest (Shopify signs whatever the page sent). */
  extra?: Record<string, string>;
  store?: string;
  /** Sign with another secret to forge the request. */
  secret?: string;
}

/**
 * GET {app}/proxy/links as the app proxy forwards /apps/referrals/links:
 * logged_in_customer_id and path_prefix are added BEFORE signing, so the
 * signature covers them (setUpValidRequest adds shop and timestamp).
 */
export function proxyRequest(options: ProxyOptions = {}): Promise<Request> {
  const url = new URL(`${appUrl()}/proxy/links`);
  url.searchParams.set("path_prefix", "/apps/referrals");
  if (options.customerId !== undefined) url.searchParams.set("logged_in_customer_id", options.customerId);
  for (const [name, value] of Object.entries(options.extra ?? {})) url.searchParams.append(name, value);
  return setUpValidRequest(
    { type: RequestType.Public, store: options.store ?? STORE, apiSecretKey: options.secret ?? secret() },
    new Request(url, { headers: { Accept: "application/json" } }),
  );
}

/**
 * Signs a query the way Shopify documents for app proxies, including repeated
 * parameters (values joined with ","), which setUpValidRequest cannot express.
 */
export function signProxyQuery(search: URLSearchParams, apiSecret = secret()): string {
  const joined = new Map<string, string[]>();
  for (const [name, value] of search) if (name !== "signature") joined.set(name, [...(joined.get(name) ?? []), value]);
  const message = [...joined.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, values]) => `${name}=${values.join(",")}`)
    .join("");
  return createHmac("sha256", apiSecret).update(message).digest("hex");
}

export interface TokenOptions {
  /** gid://shopify/Customer/<id>; null leaves `sub` out. */
  customerId?: string | null;
  store?: string;
  secret?: string;
  /** Claims to change, e.g. { exp } for an expired token. */
  claims?: Record<string, unknown>;
  method?: string;
  origin?: string | null;
  /** The app route asked; the customer account extension's unless given. */
  path?: string;
}

/**
 * GET {app}/api/customer-account/links from the customer account extension (or
 * another extension's route, `path`, e.g. the checkout extension's): a
 * Bearer session token (HS256 with the app's secret; iss, dest, aud, sub, exp,
 * nbf, iat, jti, sid, as decodeSessionToken checks them).
 */
export async function customerAccountRequest(options: TokenOptions = {}): Promise<Request> {
  const store = options.store ?? STORE;
  const customerId = options.customerId === undefined ? "7001" : options.customerId;
  const { token } = await getJwt(store, process.env.SHOPIFY_API_KEY!, options.secret ?? secret(), {
    iss: `https://${store}.myshopify.com`,
    dest: `${store}.myshopify.com`,
    sub: customerId === null ? undefined : `gid://shopify/Customer/${customerId}`,
    ...options.claims,
  });
  const headers = new Headers({ Authorization: `Bearer ${token}`, Accept: "application/json" });
  if (options.origin !== null) headers.set("Origin", options.origin ?? EXTENSION_ORIGIN);
  return new Request(`${appUrl()}${options.path ?? "/api/customer-account/links"}`, { method: options.method ?? "GET", headers });
}

/** Runs a Remix loader or action, turning a thrown Response into the answer. */
export async function respond(
  handler: (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<Response>,
  request: Request,
): Promise<Response> {
  try {
    return await handler({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** What the web pixel (extensions/referral-pixel) sends at checkout_completed for order `id`: its checkout's token and the order's identity. */
export const pixelSignalFor = (id: bigint, code: string, extra: Record<string, unknown> = {}) => ({
  shop: SHOP,
  checkoutToken: sampleCheckoutToken(id),
  orderId: `gid://shopify/OrderIdentity/${id}`,
  code,
  campaign: "",
  ...extra,
});

/** The pixel's POST of `body` (a signal, or any text) to the served app at `origin`, text/plain as the pixel sends it. */
export function postPixelSignal(origin: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${origin}/api/pixel`, {
    method: "POST",
    headers: { "Content-Type": "text/plain", Origin: `https://${SHOP}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
