import type { LoaderFunctionArgs } from "@remix-run/node";
import { headlessShareLinks } from "../entry/storefront/headless-endpoint.server";
import { headlessEndpointDeps } from "../wiring/headless-context.server";

/**
 * GET /api/headless/share-links?shop=<shop>.myshopify.com: a headless storefront's
 * signed-in customer's share links (packages/headless). The customer is whoever
 * Shopify says owns the Customer Account API token in Authorization; any other
 * token gets 401. OPTIONS (a preflight) comes to the action.
 */
export const loader = ({ request }: LoaderFunctionArgs) => headlessShareLinks(request, headlessEndpointDeps());

export const action = ({ request }: LoaderFunctionArgs) => headlessShareLinks(request, headlessEndpointDeps());
