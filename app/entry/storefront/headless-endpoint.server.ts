import type { Logger } from "../../platform/logger/logger.server";
import type { CustomerTokenVerifier } from "../../platform/shopify-customer-account/customer-token.server";
import { badShareLinksRequest, sessionTokenCustomer, sessionTokenShop } from "../../domains/storefront";

// The app's answers to a headless storefront (packages/headless), which has no
// app proxy: GET /api/headless/share-links (the signed-in customer's links) and
// GET /api/headless/offer-campaigns (the campaigns with a live friend's offer).
// The shop is named in ?shop=; the customer only by their Customer Account API
// token, whose owner Shopify tells (customer-token.server.ts). Tokens travel in
// the Authorization header, never in cookies, so any origin may ask.

export interface HeadlessEndpointDeps {
  /** Whether the app is installed on the shop (nothing is asked of Shopify for any other). */
  isInstalled(shop: string): Promise<boolean>;
  tokenOwner: CustomerTokenVerifier;
  /** The share links answer for a customer Shopify vouched for (numeric id). */
  shareLinks(shop: string, customerId: string): Promise<Response>;
  /** The live friend's offer campaigns' uids. */
  offerCampaigns(shop: string): Promise<string[]>;
  logger: Logger;
}

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Accept",
  "Access-Control-Max-Age": "86400",
};

function withCors(response: Response): Response {
  for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value);
  return response;
}

const refuse = (status: number, message: string, extra: Record<string, string> = {}) =>
  withCors(Response.json({ status: "error", message }, { status, headers: { "Cache-Control": "private, no-store", ...extra } }));

/** The preflight and the method check both routes share; null when the request is a GET to go on with. */
function preamble(request: Request): Response | null {
  if (request.method === "OPTIONS") return withCors(new Response(null, { status: 204 }));
  if (request.method !== "GET") return refuse(405, "Use GET.", { Allow: "GET, OPTIONS" });
  return null;
}

function shopOf(request: Request): string | null {
  const values = new URL(request.url).searchParams.getAll("shop");
  return values.length === 1 ? sessionTokenShop(values[0]) : null;
}

/** "Bearer <token>" (or the bare token, as the Customer Account API itself takes it). */
function bearer(request: Request): string | null {
  const header = request.headers.get("authorization")?.trim() ?? "";
  const token = header.replace(/^Bearer\s+/i, "").trim();
  return token && token.length <= 4096 && !/\s/.test(token) ? token : null;
}

export async function headlessShareLinks(request: Request, deps: HeadlessEndpointDeps): Promise<Response> {
  const early = preamble(request);
  if (early) return early;
  const shop = shopOf(request);
  if (!shop) return withCors(badShareLinksRequest("?shop= must name the shop's myshopify.com domain, once"));
  const token = bearer(request);
  if (!token) return refuse(401, "Send the customer's Customer Account API access token as Authorization: Bearer <token>.");
  if (!(await deps.isInstalled(shop))) return refuse(401, "Referral Bridge is not installed on this shop.");

  const owner = await deps.tokenOwner(shop, token);
  if (owner.kind === "refused") {
    deps.logger.info({ shop, reason: owner.reason }, "headless share links: Shopify did not vouch for the customer token");
    return refuse(401, "The customer token is not valid for this shop.");
  }
  if (owner.kind === "unreachable") {
    deps.logger.warn({ shop, reason: owner.reason }, "headless share links: the Customer Account API could not be asked");
    return refuse(503, "The customer could not be checked with Shopify; try again shortly.", { "Retry-After": "30" });
  }
  const customer = sessionTokenCustomer(owner.customerGid);
  if (customer.kind !== "customer") return refuse(401, "The customer token names no customer.");
  return withCors(await deps.shareLinks(shop, customer.customerId));
}

export async function headlessOfferCampaigns(request: Request, deps: HeadlessEndpointDeps): Promise<Response> {
  const early = preamble(request);
  if (early) return early;
  const shop = shopOf(request);
  if (!shop) return withCors(badShareLinksRequest("?shop= must name the shop's myshopify.com domain, once"));
  const campaigns = (await deps.isInstalled(shop)) ? await deps.offerCampaigns(shop) : [];
  // What the theme's pages show anyone; a few minutes' staleness is what the theme's metafield has too.
  return withCors(Response.json({ campaigns }, { headers: { "Cache-Control": "public, max-age=300" } }));
}
