import type { PrismaClient } from "@prisma/client";
import type { Logger } from "../../platform/logger/logger.server";
import { acceptPixelSignal } from "../../domains/referrals/pixel-signals.server";
import { PIXEL_BODY_LIMIT, readPixelSignal } from "../../domains/referrals/pixel-signal";
import { readBodyWithin } from "../../platform/http/read-body";
import { addressGroup, type RateLimiter } from "../../domains/storefront/rate-limit";

// POST /api/pixel: the web pixel's signal at checkout_completed. The pixel
// runs in Shopify's sandbox on any origin and posts text/plain (no preflight),
// so every answer allows any origin. A known shop and an unknown one get the
// same 204, a stored signal and a repeat too: the answers tell nothing about
// other shops or orders. Limits: per client address (IPv6 by /64) for one
// shop, and across shops; never per shop alone, which anyone could use up
// for a shop's real buyers by naming it.

/** The pixel's body is a few hundred bytes, sent at once: a client that trickles it is let go. */
export const PIXEL_BODY_DEADLINE_MS = 5_000;

export interface PixelEndpointDeps {
  db: PrismaClient;
  logger: Logger;
  now(): Date;
  /** Per client address and shop. */
  perShopAddress: RateLimiter;
  /** Per client address, whichever shops it names. */
  perAddress: RateLimiter;
  /** The most signals one shop keeps, the oldest pruned past it (default MAX_PIXEL_SIGNALS_PER_SHOP). */
  maxSignalsPerShop?: number;
  /** Looks at the first requests' X-Forwarded-For (see proxy-hops.ts). */
  checkProxy?(forwardedFor: string | undefined): void;
}

/** One address may post for many shops (a shared network), but not without end. */

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Max-Age": "86400",
};

function answer(status: number, message?: string, extra: Record<string, string> = {}): Response {
  const headers = { ...CORS, "Cache-Control": "no-store", ...extra };
  if (message === undefined) return new Response(null, { status, headers });
  return Response.json({ error: message }, { status, headers });
}


export async function handlePixelRequest(request: Request, clientAddress: string | undefined, deps: PixelEndpointDeps): Promise<Response> {
  deps.checkProxy?.(request.headers.get("x-forwarded-for") ?? undefined);
  if (request.method === "OPTIONS") return answer(204);
  if (request.method !== "POST") return answer(405, "Use POST.", { Allow: "POST, OPTIONS" });
  const slowDown = { "Retry-After": "60" };
  const address = addressGroup(clientAddress);
  if (!deps.perAddress.allow(address)) return answer(429, "Too many requests.", slowDown);
  const read = await readBodyWithin(request, PIXEL_BODY_LIMIT, { deadlineMs: PIXEL_BODY_DEADLINE_MS });
  if (!read.ok) return read.status === 408 ? answer(408, "The body did not arrive in time.", { Connection: "close" }) : answer(413, "The body is too large.", { Connection: "close" });
  const parsed = readPixelSignal(read.body.toString("utf8"));
  if (!parsed.ok) return answer(400, parsed.problem);
  if (!deps.perShopAddress.allow(`${parsed.signal.shop}|${address}`)) return answer(429, "Too many requests.", slowDown);
  try {
    const outcome = await acceptPixelSignal(deps.db, parsed.signal, deps.now(), deps.maxSignalsPerShop);
    deps.logger.debug({ shop: parsed.signal.shop, outcome }, "pixel signal");
  } catch (error) {
    deps.logger.error({ err: error, shop: parsed.signal.shop }, "pixel signal not stored");
    return answer(503, "Try again later.", slowDown);
  }
  return answer(204);
}
