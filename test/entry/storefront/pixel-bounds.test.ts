import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { handlePixelRequest, PIXEL_BODY_DEADLINE_MS } from "../../../app/entry/storefront/pixel-endpoint.server";
import { pixelLimiters } from "../../../app/domains/storefront/rate-limit";
import { resetDatabase } from "../../support/database";
import { TEST_SHOP } from "../../support/shopify-requests";

// The pixel endpoint's bounds on the function the route calls: the signals one shop keeps (the oldest pruned
// past the bound, decision 030) and the time its body may take to arrive.

const OTHER_SHOP = "other-shop.myshopify.com";
const token = (n: number) => `token${String(n).padStart(20, "0")}`;
const signal = (n: number, shop = TEST_SHOP) =>
  new Request("http://app.test/api/pixel", {
    method: "POST",
    headers: { "Content-Type": "text/plain" },
    body: JSON.stringify({ shop, checkoutToken: token(n), orderId: null, code: "ALICE10", campaign: "" }),
  });

let clock = Date.parse("2026-11-20T10:00:00Z");
const endpoint = (maxSignalsPerShop?: number) => ({ db: prisma, logger: createLogger({ level: "silent" }), now: () => new Date((clock += 1_000)), ...pixelLimiters(1_000), maxSignalsPerShop });
const kept = async (shop: string) => (await prisma.pixelSignal.findMany({ where: { shop }, orderBy: { createdAt: "asc" }, select: { checkoutToken: true } })).map((row) => row.checkoutToken);

beforeEach(async () => {
  await resetDatabase();
  await prisma.shop.createMany({ data: [{ shop: TEST_SHOP }, { shop: OTHER_SHOP }] });
});

describe("the pixel endpoint's bounds", () => {
  it("keeps at most the bound of one shop's signals, the oldest pruned first, with the same answer, and no other shop's touched", async () => {
    const deps = endpoint(3);
    expect((await handlePixelRequest(signal(100, OTHER_SHOP), "198.51.100.9", deps)).status).toBe(204);
    const answers: number[] = [];
    for (let n = 1; n <= 5; n++) answers.push((await handlePixelRequest(signal(n), `198.51.100.${n}`, deps)).status);
    expect(answers).toEqual([204, 204, 204, 204, 204]);
    expect(await kept(TEST_SHOP)).toEqual([token(3), token(4), token(5)]);
    expect(await kept(OTHER_SHOP)).toEqual([token(100)]);
    // A repeat of a kept checkout changes nothing.
    expect((await handlePixelRequest(signal(5), "198.51.100.77", deps)).status).toBe(204);
    expect(await kept(TEST_SHOP)).toEqual([token(3), token(4), token(5)]);
  });

  it("lets go of a body that has not arrived within the deadline (408), keeping nothing", async () => {
    const start = Date.now();
    const trickle = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"shop":')) });
    const request = new Request("http://app.test/api/pixel", { method: "POST", headers: { "Content-Type": "text/plain" }, body: trickle, duplex: "half" } as RequestInit);
    const response = await handlePixelRequest(request, "198.51.100.20", endpoint());
    expect([response.status, await response.json()]).toEqual([408, { error: "The body did not arrive in time." }]);
    expect(Date.now() - start).toBeGreaterThanOrEqual(PIXEL_BODY_DEADLINE_MS - 50);
    expect(Date.now() - start).toBeLessThan(PIXEL_BODY_DEADLINE_MS + 3_000);
    expect(await prisma.pixelSignal.count()).toBe(0);
  });
});
