import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../wiring/shopify.server";
import { methodNotAllowed, sessionTokenShareLinks } from "../wiring/session-token-links.server";

/**
 * GET /api/checkout/share-link: the buyer's share links for the checkout UI
 * extension (extensions/checkout-share-link) on the thank-you page and the
 * order status page. Same answer and the same rules as the customer account
 * route: the shop and the buyer come only from the session token Shopify
 * signed with the app's secret (forged or expired: 401); a token without a
 * customer is a guest checkout; the shop enrols the buyer when it enrols
 * automatically. Every answer carries CORS headers for the extension's origin.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<Response> {
  const { sessionToken, cors } = await authenticate.public.checkout(request);
  return cors(await sessionTokenShareLinks(sessionToken, "checkout"));
}

/** Remix routes the browser's CORS preflight (OPTIONS) here; authenticate answers it with 204. */
export async function action({ request }: ActionFunctionArgs): Promise<Response> {
  const { cors } = await authenticate.public.checkout(request);
  return cors(methodNotAllowed());
}
