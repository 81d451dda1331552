// The "Send events to Shopify Flow" switch on the Settings page: the route's
// loader and action as the merchant's browser calls them.
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { action, loader } from "../../../app/routes/app.settings";
import { load, submit } from "../../entry/admin/admin-requests";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";

const sandbox = useTestSandbox();

beforeEach(async () => {
  await installShop();
  await connectShop(sandbox);
});

const SETTINGS = {
  intent: "save-settings",
  campaignUids: ["1001"],
  trigger: "orders_paid",
  scope: "with_code",
  approval: "campaign",
  revenueBasis: "subtotal_after_discounts",
  codeParams: "mbsy",
  testOrders: "skip",
  autoEnrol: "false",
  newAmbassadorGroup: "",
};

const flowTriggers = async () => (await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).flowTriggers;

describe("Send events to Shopify Flow", () => {
  it("is off by default, turned on and off from the Settings form, and kept when a form does not send it", async () => {
    expect(await flowTriggers()).toBe(false);
    expect((await load(loader, "/app/settings")).settings).toMatchObject({ flowTriggers: false });

    expect((await submit(action, "/app/settings", { ...SETTINGS, flowTriggers: "true" })).body).toMatchObject({ ok: true });
    expect(await flowTriggers()).toBe(true);
    expect((await load(loader, "/app/settings")).settings).toMatchObject({ flowTriggers: true });

    expect((await submit(action, "/app/settings", SETTINGS)).body).toMatchObject({ ok: true });
    expect(await flowTriggers()).toBe(true);

    expect((await submit(action, "/app/settings", { ...SETTINGS, flowTriggers: "false" })).body).toMatchObject({ ok: true });
    expect(await flowTriggers()).toBe(false);

    const refused = (await submit(action, "/app/settings", { ...SETTINGS, flowTriggers: "yes" })).body;
    expect(refused).toMatchObject({ ok: false, fieldErrors: { flowTriggers: expect.stringContaining("Shopify Flow") } });
  });
});
