import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { createLogger } from "../../app/logger.server";
import { handlePixelRequest, pixelLimiters } from "../../app/storefront/pixel-endpoint.server";
import { createRateLimiter } from "../../app/storefront/rate-limit";
import { connectShop, useTestSandbox } from "../support/pipeline";
import { TEST_SHOP } from "../support/shopify-requests";

// The pixel endpoint's limits, on the function the route calls: per client
// address first, then per shop, each answered 429 with Retry-After.

const sandbox = useTestSandbox();

const signal = (n: number, shop = TEST_SHOP) =>
  new Request("http://app.test/api/pixel", {
    method: "POST",
    headers: { "Content-Type": "text/plain" },
    body: JSON.stringify({ shop, checkoutToken: `token${String(n).padStart(20, "0")}`, orderId: null, code: "ALICE10", campaign: "" }),
  });

describe("the pixel endpoint's rate limits", () => {
  it("limits one client address, then one shop, and lets others through", async () => {
    await connectShop(sandbox);
    const deps = { db: prisma, logger: createLogger({ level: "silent" }), now: () => new Date(), ...pixelLimiters(3, 5) };
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++) statuses.push((await handlePixelRequest(signal(n), "198.51.100.1", deps)).status);
    expect(statuses).toEqual([204, 204, 204, 429]);
    const limited = await handlePixelRequest(signal(9), "198.51.100.1", deps);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");

    // Other addresses go on until the shop's own limit (5 in the window).
    expect((await handlePixelRequest(signal(10), "198.51.100.2", deps)).status).toBe(204);
    expect((await handlePixelRequest(signal(11), "198.51.100.3", deps)).status).toBe(204);
    expect((await handlePixelRequest(signal(12), "198.51.100.4", deps)).status).toBe(429);
    // Another shop is not held back by this one.
    expect((await handlePixelRequest(signal(13, "other-shop.myshopify.com"), "198.51.100.5", deps)).status).toBe(204);
    expect(await prisma.pixelSignal.count({ where: { shop: TEST_SHOP } })).toBe(5);
  });

  it("counts in fixed windows and bounds the keys it remembers", () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 1_000, maxKeys: 2 });
    expect([limiter.allow("a", 0), limiter.allow("a", 10), limiter.allow("a", 20)]).toEqual([true, true, false]);
    expect(limiter.allow("a", 1_000)).toBe(true);
    // Past two keys, new keys share one count.
    expect([limiter.allow("b", 1_001), limiter.allow("c", 1_002), limiter.allow("d", 1_003), limiter.allow("e", 1_004)]).toEqual([true, true, true, false]);
  });
});
