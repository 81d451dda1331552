import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../wiring/shopify.server";
import { adminCustomerLookup } from "../platform/shopify-admin/customer-lookup.server";
import { proxyCustomer } from "../domains/storefront/signed-customer";
import { appShareLinksDeps } from "../wiring/storefront-context.server";
import { badShareLinksRequest, shareLinksResponse } from "../domains/storefront/share-links-response.server";
import { readAmountFormat, withDisplayAmounts } from "../domains/storefront/share-links-display";
import { loadShareLinks } from "../domains/storefront/share-links.server";

/**
 * GET /apps/referrals/links on the shop's storefront, forwarded here by the app
 * proxy: the signed-in customer's share links for the "Referral links" theme
 * block. A request without a valid proxy signature, or with a timestamp out of
 * the library's 90 s tolerance, never gets past authenticate (400).
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<Response> {
  const { admin } = await authenticate.public.appProxy(request);
  const search = new URL(request.url).searchParams;
  // Covered by the signature, like logged_in_customer_id.
  const shop = search.get("shop");
  if (!shop) return badShareLinksRequest("The request does not name a shop");
  const customer = proxyCustomer(search);
  if (customer.kind === "invalid") return badShareLinksRequest(customer.reason);
  const answer = await loadShareLinks(appShareLinksDeps(), {
    shop,
    customerId: customer.kind === "customer" ? customer.customerId : null,
    lookupCustomer: admin ? adminCustomerLookup(admin) : null,
    surface: "app_proxy",
  });
  // The block's locale and currency (signed with the rest of the query): the amounts arrive formatted.
  const format = readAmountFormat(search);
  return shareLinksResponse(format ? withDisplayAmounts(answer, format) : answer);
}
