import { unauthenticated } from "./shopify.server";
import { adminCustomerLookup, type CustomerLookup } from "../platform/shopify-admin/customer-lookup.server";
import { appShareLinksDeps } from "./storefront-context.server";
import { badShareLinksRequest, shareLinksResponse } from "../domains/storefront";
import { loadShareLinks, type ShareLinksQuery } from "../domains/storefront";
import { sessionTokenCustomer, sessionTokenShop } from "../domains/storefront";

/** The claims of a verified extension session token that name the shop and the buyer. */
export interface ExtensionSessionToken {
  dest: unknown;
  sub?: unknown;
}

/**
 * The share links answer for a UI extension's session token, which the route
 * has already verified (authenticate.public.customerAccount / .checkout: the
 * app's secret, expiry, audience). The shop is the token's `dest` and the
 * customer its `sub`, never anything the extension sends; a token without a
 * customer is a guest. The route adds the CORS headers.
 */
export async function sessionTokenShareLinks(
  sessionToken: ExtensionSessionToken,
  surface: Exclude<ShareLinksQuery["surface"], "app_proxy">,
): Promise<Response> {
  const shop = sessionTokenShop(sessionToken.dest);
  if (!shop) return badShareLinksRequest("The session token does not name a shop");
  const customer = sessionTokenCustomer(sessionToken.sub);
  if (customer.kind === "invalid") return badShareLinksRequest(customer.reason);
  const answer = await loadShareLinks(appShareLinksDeps(), {
    shop,
    customerId: customer.kind === "customer" ? customer.customerId : null,
    lookupCustomer: customer.kind === "customer" ? await offlineCustomerLookup(shop) : null,
    surface,
  });
  return shareLinksResponse(answer);
}

/** An extension's CORS preflight reaches the action; anything but OPTIONS is not allowed there. */
export const methodNotAllowed = () => new Response(null, { status: 405, headers: { Allow: "GET, OPTIONS" } });

export async function offlineCustomerLookup(shop: string): Promise<CustomerLookup | null> {
  try {
    const { admin } = await unauthenticated.admin(shop);
    return adminCustomerLookup(admin);
  } catch {
    // No offline session: the app is not installed on this shop (any more).
    return null;
  }
}
