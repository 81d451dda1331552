import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { action } from "../../../app/routes/webhooks.app.uninstalled";
import { resetDatabase } from "../../support/database";
import { installShop } from "../../support/sessions";
import { routeArgs, signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

async function respond(request: Request): Promise<Response> {
  try {
    return await action(routeArgs(request));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("webhooks/app/uninstalled", () => {
  beforeEach(resetDatabase);

  it("deletes the shop's sessions and keeps other shops' sessions", async () => {
    await installShop();
    await installShop("other-shop.myshopify.com");
    await prisma.shop.create({ data: { shop: TEST_SHOP, companyName: "Demo Outfitters" } });

    const response = await respond(signedWebhook({ topic: "app/uninstalled", body: { id: 1, domain: TEST_SHOP, myshopify_domain: TEST_SHOP } }));

    expect(response.status).toBe(200);
    expect(await prisma.session.count({ where: { shop: TEST_SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: "other-shop.myshopify.com" } })).toBe(1);
    // Settings stay until shop/redact, so a reinstall finds them.
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(shop.companyName).toBe("Demo Outfitters");
    expect(shop.uninstalledAt).toBeInstanceOf(Date);
  });

  it("refuses a forged signature with 401 and deletes nothing", async () => {
    await installShop();
    const forged = signedWebhook({ topic: "app/uninstalled", body: { id: 1 }, secret: "not-the-app-secret" });

    const response = await respond(forged);

    expect(response.status).toBe(401);
    expect(await prisma.session.count({ where: { shop: TEST_SHOP } })).toBe(1);
  });

  it("answers 200 to a repeated delivery after the sessions are gone", async () => {
    const response = await respond(signedWebhook({ topic: "app/uninstalled", body: { id: 1, myshopify_domain: TEST_SHOP } }));
    expect(response.status).toBe(200);
  });

  it("refuses with 400, before anything changes, a signed body that names another shop or none", async () => {
    await installShop();
    for (const body of [{ id: 1, myshopify_domain: "other-shop.myshopify.com", domain: TEST_SHOP }, { id: 1 }, { id: 1, shop_domain: TEST_SHOP }]) {
      const response = await respond(signedWebhook({ topic: "app/uninstalled", body }));
      expect(response.status).toBe(400);
    }
    expect(await prisma.session.count({ where: { shop: TEST_SHOP } })).toBe(1);
  });
});
