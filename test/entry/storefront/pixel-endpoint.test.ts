import { describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { handlePixelRequest } from "../../../app/entry/storefront/pixel-endpoint.server";
import { pixelLimiters } from "../../../app/domains/storefront/rate-limit";
import { addressGroup, createRateLimiter } from "../../../app/domains/storefront/rate-limit";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";

// The pixel endpoint's limits, on the function the route calls: per client
// address (IPv6 by /64) for one shop, and across shops, each answered 429
// with Retry-After. No limit per shop alone: naming a shop must not let
// anyone use up its real buyers' share.

const sandbox = useTestSandbox();

const signal = (n: number, shop = TEST_SHOP) =>
  new Request("http://app.test/api/pixel", {
    method: "POST",
    headers: { "Content-Type": "text/plain" },
    body: JSON.stringify({ shop, checkoutToken: `token${String(n).padStart(20, "0")}`, orderId: null, code: "ALICE10", campaign: "" }),
  });

const endpoint = (perMinute: number) => ({ db: prisma, logger: createLogger({ level: "silent" }), now: () => new Date(), ...pixelLimiters(perMinute) });

describe("the pixel endpoint's rate limits", () => {
  it("limits one client address for one shop, and never the shop's other buyers", async () => {
    await connectShop(sandbox);
    const deps = endpoint(3);
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++) statuses.push((await handlePixelRequest(signal(n), "198.51.100.1", deps)).status);
    expect(statuses).toEqual([204, 204, 204, 429]);
    const limited = await handlePixelRequest(signal(9), "198.51.100.1", deps);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");

    // Every other address still gets through for the same shop: there is no per-shop limit to use up.
    for (let n = 10; n < 20; n++) expect((await handlePixelRequest(signal(n), `198.51.100.${n}`, deps)).status).toBe(204);
    expect(await prisma.pixelSignal.count({ where: { shop: TEST_SHOP } })).toBe(13);
  });

  it("counts an IPv6 client by its /64, and one address across shops up to ten times its limit", async () => {
    await connectShop(sandbox);
    const deps = endpoint(2);
    expect((await handlePixelRequest(signal(1), "2001:db8:1:2::10", deps)).status).toBe(204);
    expect((await handlePixelRequest(signal(2), "2001:db8:1:2:ffff::1", deps)).status).toBe(204);
    expect((await handlePixelRequest(signal(3), "2001:db8:1:2:abcd:0:0:7", deps)).status).toBe(429);
    expect((await handlePixelRequest(signal(4), "2001:db8:1:3::10", deps)).status).toBe(204);

    const shops = Array.from({ length: 25 }, (_, i) => `shop-${i}.myshopify.com`);
    const answers = [];
    for (const [i, shop] of shops.entries()) answers.push((await handlePixelRequest(signal(100 + i, shop), "203.0.113.9", deps)).status);
    expect(answers.filter((status) => status === 204)).toHaveLength(20);
  });

  it("keeps each key's own count, forgetting the least recently seen beyond its bound", () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 1_000, maxKeys: 2 });
    expect([limiter.allow("a", 0), limiter.allow("a", 10), limiter.allow("a", 20)]).toEqual([true, true, false]);
    expect(limiter.allow("a", 1_000)).toBe(true);
    // A flood of new keys never makes them share one count: each new key is counted on its own.
    expect(["b", "c", "d", "e", "f"].map((key, i) => limiter.allow(key, 1_001 + i))).toEqual([true, true, true, true, true]);
    expect([limiter.allow("f", 1_010), limiter.allow("f", 1_011)]).toEqual([true, false]);
  });

  it("groups addresses as the limits count them", () => {
    expect(addressGroup("203.0.113.9")).toBe("203.0.113.9");
    expect(addressGroup("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressGroup("2001:db8:1:2::10")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:0db8:0001:0002:abcd:0:0:7")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressGroup(undefined)).toBe("unknown");
  });
});
