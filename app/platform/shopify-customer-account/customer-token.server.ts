import { createHash } from "node:crypto";
import { createTtlCache } from "../cache/ttl-cache";

// Who owns a Customer Account API access token, asked of Shopify. The token a
// headless storefront holds for its signed-in customer (shcat_...) is opaque:
// Shopify publishes no key to check it with and it carries no claims, so the
// app cannot read it offline. The one authority is the shop's Customer Account
// API itself: the token is sent to it with a query for the customer's id, and
// Shopify answers with the customer, or 401 for a token that is not (or no
// longer) one of this shop's. docs/decisions/034-headless-customer-token.md
// says why and what it costs.

export const CUSTOMER_ACCOUNT_API_VERSION = "2026-10";

/** The one Customer Account API document the app sends (test/packages/headless/documents.test.ts validates it). */
export const CUSTOMER_ID_QUERY = `#graphql
query ReferralBridgeTokenOwner { customer { id } }`;

export type TokenOwner =
  | { kind: "customer"; customerGid: string }
  /** Shopify does not know the token for this shop (forged, expired, revoked, another shop's). */
  | { kind: "refused"; reason: string }
  /** Shopify could not be asked (network, 5xx, an unreadable answer): try again later. */
  | { kind: "unreachable"; reason: string };

export interface CustomerTokenVerifierOptions {
  fetch?: typeof fetch;
  /**
   * Development only (SHOPIFY_CUSTOMER_ACCOUNT_API_ORIGIN): the discovery
   * request goes to this origin, the shop named in X-Forwarded-Host, instead
   * of https://<shop>.
   */
  standInOrigin?: () => string | undefined;
  /** How long a confirmed token's owner is reused (a minute by default). */
  ttlMs?: number;
  timeoutMs?: number;
}

export type CustomerTokenVerifier = (shop: string, accessToken: string) => Promise<TokenOwner>;

interface Discovery {
  graphql_api?: unknown;
}

/** The discovery answer's GraphQL address, at the app's version. */
function graphqlAddress(discovery: Discovery, allowHttp: boolean): string | null {
  if (typeof discovery.graphql_api !== "string") return null;
  let url: URL;
  try {
    url = new URL(discovery.graphql_api);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:")) return null;
  url.pathname = url.pathname.replace(/\/api\/[^/]+\/graphql(\.json)?$/, `/api/${CUSTOMER_ACCOUNT_API_VERSION}/graphql`);
  return url.toString();
}

export function customerTokenVerifier(options: CustomerTokenVerifierOptions = {}): CustomerTokenVerifier {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const owners = createTtlCache<TokenOwner>({ ttlMs: options.ttlMs ?? 60_000, maxEntries: 20_000 });
  const endpoints = createTtlCache<string | null>({ ttlMs: 60 * 60_000, maxEntries: 5_000 });

  async function endpointOf(shop: string): Promise<string | null> {
    return endpoints.getOrLoad(
      shop,
      async () => {
        const standIn = options.standInOrigin?.();
        const url = standIn ? new URL("/.well-known/customer-account-api", standIn) : new URL(`https://${shop}/.well-known/customer-account-api`);
        const response = await doFetch(url, { headers: { Accept: "application/json", ...(standIn ? { "X-Forwarded-Host": shop } : {}) }, signal: AbortSignal.timeout(timeoutMs) });
        const body = (await response.json().catch(() => ({}))) as Discovery;
        return response.ok ? graphqlAddress(body, !!standIn) : null;
      },
      (endpoint) => endpoint !== null,
    );
  }

  async function ask(shop: string, accessToken: string): Promise<TokenOwner> {
    let endpoint: string | null;
    try {
      endpoint = await endpointOf(shop);
    } catch (error) {
      return { kind: "unreachable", reason: `discovery failed: ${(error as Error).message}` };
    }
    if (!endpoint) return { kind: "unreachable", reason: "the shop's Customer Account API could not be found" };
    let response: Response;
    try {
      response = await doFetch(endpoint, {
        method: "POST",
        // The Customer Account API takes the token itself, with no scheme.
        headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: accessToken },
        body: JSON.stringify({ query: CUSTOMER_ID_QUERY }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return { kind: "unreachable", reason: (error as Error).message };
    }
    const body = (await response.json().catch(() => null)) as { data?: { customer?: { id?: unknown } | null } } | null;
    if (response.status === 401 || response.status === 403) return { kind: "refused", reason: `Shopify answered ${response.status}` };
    if (!response.ok || !body) return { kind: "unreachable", reason: `Shopify answered ${response.status}` };
    const id = body.data?.customer?.id;
    return typeof id === "string" ? { kind: "customer", customerGid: id } : { kind: "refused", reason: "the answer names no customer" };
  }

  return (shop, accessToken) =>
    owners.getOrLoad(
      // The token itself is never kept, only a digest of it.
      createHash("sha256").update(`${shop}\n${accessToken}`).digest("base64url"),
      () => ask(shop, accessToken),
      (owner) => owner.kind === "customer",
    );
}
