import prisma from "./db.server";
import { credentialsKeys, getEnv, serviceNetwork } from "./env.server";
import { logger } from "../platform/logger/logger.server";
import { shopClient } from "../domains/connection";
import { pixelLimiters } from "../domains/storefront";
import { proxyHopsCheck } from "../domains/storefront";
import type { ShareLinksAnswer } from "../domains/storefront";
import { shareLinksCacheKey, type ShareLinksDeps } from "../domains/storefront";
import { createTtlCache } from "../platform/cache/ttl-cache";

/** How long a customer's answer is reused: repeat views stay fast and the service is asked once a minute at most. */
export const SHARE_LINKS_TTL_MS = 60_000;
const POINT_NAME_TTL_MS = 10 * 60_000;
/** A customer waits for this answer, so the service gets less time than a job would. */
const SERVICE_TIMEOUT_MS = 5_000;

// One cache per app process; several processes each keep their own, which the short TTL allows.
const answers = createTtlCache<ShareLinksAnswer>({ ttlMs: SHARE_LINKS_TTL_MS, maxEntries: 20_000 });
const pointNames = createTtlCache<string | null>({ ttlMs: POINT_NAME_TTL_MS, maxEntries: 5_000 });

/** The share links dependencies of this app process. */
export function appShareLinksDeps(): ShareLinksDeps {
  const env = getEnv();
  return {
    db: prisma,
    clientForShop: (shop) => shopClient(prisma, shop, { credentialsKey: credentialsKeys(env), timeoutMs: SERVICE_TIMEOUT_MS, network: serviceNetwork(env) }),
    answers,
    pointNames,
    logger,
    appSecret: env.SHOPIFY_API_SECRET,
  };
}

/**
 * Drops cached answers: one customer's (customers/redact), or a whole shop's
 * (shop/redact, a new connection). Without a call they expire within a minute.
 */
export function forgetShareLinks(shop: string, customerId?: string): void {
  if (customerId === undefined) {
    answers.deletePrefix(shareLinksCacheKey(shop, ""));
    pointNames.delete(shop);
  } else {
    answers.delete(shareLinksCacheKey(shop, customerId));
  }
}

function newPixelEndpointDeps() {
  const env = getEnv();
  return {
    db: prisma,
    logger,
    now: () => new Date(),
    ...pixelLimiters(env.PIXEL_LIMIT_PER_ADDRESS),
    checkProxy: proxyHopsCheck(env.TRUST_PROXY_HOPS, logger),
  };
}

let pixel: ReturnType<typeof newPixelEndpointDeps> | undefined;

/** The web pixel endpoint's dependencies, its rate limiters (per app process) made once. */
export function pixelEndpointDeps() {
  return (pixel ??= newPixelEndpointDeps());
}
