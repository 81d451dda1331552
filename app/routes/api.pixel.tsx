import type { ActionFunctionArgs } from "@remix-run/node";
import { handlePixelRequest } from "../entry/storefront/pixel-endpoint.server";
import { pixelEndpointDeps } from "../wiring/storefront-context.server";

/**
 * POST /api/pixel: the web pixel's signal at checkout (extensions/referral-pixel),
 * joined with its order on the checkout token (app/domains/referrals/pixel-signals.server.ts).
 * OPTIONS (a preflight) also comes here; any other method is refused.
 */

/** server.mjs puts the client's address in the load context (behind proxies: TRUST_PROXY_HOPS). */
const clientAddress = (context: ActionFunctionArgs["context"]) => (typeof context.clientAddress === "string" ? context.clientAddress : undefined);

export const action = ({ request, context }: ActionFunctionArgs) => handlePixelRequest(request, clientAddress(context), pixelEndpointDeps());

export const loader = ({ request, context }: ActionFunctionArgs) => handlePixelRequest(request, clientAddress(context), pixelEndpointDeps());
