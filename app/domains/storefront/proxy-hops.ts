import type { Logger } from "../../platform/logger/logger.server";

/**
 * Watches the first requests' X-Forwarded-For against TRUST_PROXY_HOPS and
 * says it once, loudly, when the two disagree: with too few hops every
 * client behind a load balancer shares its address (and its rate limit);
 * with too many, a client chooses the address it is counted by.
 */
export function proxyHopsCheck(hops: number, logger: Pick<Logger, "error">, sample = 20): (forwardedFor: string | undefined) => void {
  let seen = 0;
  return (forwardedFor) => {
    if (seen >= sample) return;
    seen += 1;
    const entries = (forwardedFor ?? "").split(",").filter((part) => part.trim() !== "").length;
    if (hops === 0 && entries > 0) {
      seen = sample;
      logger.error(
        { forwardedAddresses: entries },
        "TRUST_PROXY_HOPS is 0, but requests come through a proxy (X-Forwarded-For): every client looks like the proxy to the web pixel's rate limits. Set TRUST_PROXY_HOPS to the number of proxies in front of the app.",
      );
    } else if (hops > 0 && entries < hops) {
      seen = sample;
      logger.error(
        { hops, forwardedAddresses: entries },
        `TRUST_PROXY_HOPS is ${hops}, but a request came with ${entries} X-Forwarded-For address${entries === 1 ? "" : "es"}: either the app is reached around its proxy, or the setting is too high and a client can choose the address its rate limit counts.`,
      );
    }
  };
}
