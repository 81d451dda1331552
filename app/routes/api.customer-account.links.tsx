import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate, unauthenticated } from "../shopify.server";
import { adminCustomerLookup } from "../storefront/customer-lookup.server";
import { sessionTokenCustomer, sessionTokenShop } from "../storefront/signed-customer";
import { appShareLinksDeps } from "../storefront/share-links-context.server";
import { badShareLinksRequest, shareLinksResponse } from "../storefront/share-links-response.server";
import { loadShareLinks } from "../storefront/share-links.server";

/**
 * GET /api/customer-account/links: the share links of the customer account
 * extension (extensions/customer-account). The customer and the shop come from
 * the session token Shopify signed with the app's secret (a forged or expired
 * one gets 401). The extension runs on another origin, so every answer carries
 * CORS headers.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<Response> {
  const { sessionToken, cors } = await authenticate.public.customerAccount(request);
  const shop = sessionTokenShop(sessionToken.dest);
  if (!shop) return cors(badShareLinksRequest("The session token does not name a shop"));
  const customer = sessionTokenCustomer(sessionToken.sub);
  if (customer.kind === "invalid") return cors(badShareLinksRequest(customer.reason));
  const answer = await loadShareLinks(appShareLinksDeps(), {
    shop,
    customerId: customer.kind === "customer" ? customer.customerId : null,
    lookupCustomer: customer.kind === "customer" ? await offlineCustomerLookup(shop) : null,
    surface: "customer_account",
  });
  return cors(shareLinksResponse(answer));
}

/** Remix routes the browser's CORS preflight (OPTIONS) here; authenticate answers it with 204. */
export async function action({ request }: ActionFunctionArgs): Promise<Response> {
  const { cors } = await authenticate.public.customerAccount(request);
  return cors(new Response(null, { status: 405, headers: { Allow: "GET, OPTIONS" } }));
}

async function offlineCustomerLookup(shop: string) {
  try {
    const { admin } = await unauthenticated.admin(shop);
    return adminCustomerLookup(admin);
  } catch {
    // No offline session: the app is not installed on this shop (any more).
    return null;
  }
}
