import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../wiring/shopify.server";
import { methodNotAllowed, sessionTokenShareLinks } from "../wiring/session-token-links.server";

/**
 * GET /api/customer-account/links: the share links of the customer account
 * extension (extensions/customer-account). The customer and the shop come from
 * the session token Shopify signed with the app's secret (a forged or expired
 * one gets 401). The extension runs on another origin, so every answer carries
 * CORS headers.
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<Response> {
  const { sessionToken, cors } = await authenticate.public.customerAccount(request);
  return cors(await sessionTokenShareLinks(sessionToken, "customer_account"));
}

/** Remix routes the browser's CORS preflight (OPTIONS) here; authenticate answers it with 204. */
export async function action({ request }: ActionFunctionArgs): Promise<Response> {
  const { cors } = await authenticate.public.customerAccount(request);
  return cors(methodNotAllowed());
}
