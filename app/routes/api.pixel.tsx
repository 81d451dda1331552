import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { getEnv } from "../env.server";
import { logger } from "../logger.server";
import { handlePixelRequest, pixelLimiters, type PixelEndpointDeps } from "../storefront/pixel-endpoint.server";

/**
 * POST /api/pixel: the web pixel's signal at checkout (extensions/referral-pixel),
 * joined with its order on the checkout token (app/referrals/pixel-signals.server.ts).
 * OPTIONS (a preflight) also comes here; any other method is refused.
 */
let deps: PixelEndpointDeps | undefined;

function endpoint(): PixelEndpointDeps {
  if (!deps) {
    const env = getEnv();
    deps = { db: prisma, logger, now: () => new Date(), ...pixelLimiters(env.PIXEL_LIMIT_PER_ADDRESS, env.PIXEL_LIMIT_PER_SHOP) };
  }
  return deps;
}

/** server.mjs puts the client's address in the load context (behind proxies: TRUST_PROXY_HOPS). */
const clientAddress = (context: ActionFunctionArgs["context"]) => (typeof context.clientAddress === "string" ? context.clientAddress : undefined);

export const action = ({ request, context }: ActionFunctionArgs) => handlePixelRequest(request, clientAddress(context), endpoint());

export const loader = ({ request, context }: ActionFunctionArgs) => handlePixelRequest(request, clientAddress(context), endpoint());
