import type { LoaderFunctionArgs } from "@remix-run/node";
import { headlessOfferCampaigns } from "../entry/storefront/headless-endpoint.server";
import { headlessEndpointDeps } from "../wiring/headless-context.server";

/**
 * GET /api/headless/offer-campaigns?shop=<shop>.myshopify.com: the campaigns with
 * a live friend's offer, for a headless storefront (the theme reads the same list
 * from the app's metafield). OPTIONS (a preflight) comes to the action.
 */
export const loader = ({ request }: LoaderFunctionArgs) => headlessOfferCampaigns(request, headlessEndpointDeps());

export const action = ({ request }: LoaderFunctionArgs) => headlessOfferCampaigns(request, headlessEndpointDeps());
