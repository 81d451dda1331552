import { describe, expect, it } from "vitest";
import prisma from "../../app/wiring/db.server";
import { RECONCILE_JOB } from "../../app/domains/order-sync/job-kinds";
import { finishInterruptedInstalls } from "../../app/wiring/install.server";
import { installShop } from "../support/sessions";
import { TEST_SHOP } from "../support/shopify-requests";

describe("an install whose afterAuth failed half-way", () => {
  it("is finished when the app starts: a shop with a session again loses its uninstall mark and gets its reconciliation; one still uninstalled is left", async () => {
    // GIVEN a reinstalled shop whose hook never ran (its session stored, its mark still set), and one still uninstalled
    await installShop(TEST_SHOP);
    await prisma.shop.create({ data: { shop: TEST_SHOP, uninstalledAt: new Date("2026-11-20T00:00:00Z") } });
    await prisma.shop.create({ data: { shop: "gone.myshopify.com", uninstalledAt: new Date("2026-11-20T00:00:00Z") } });

    // WHEN the app starts
    expect(await finishInterruptedInstalls(prisma, new Date(), { reconcileIntervalMs: 300_000 })).toBe(1);

    // THEN
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).uninstalledAt).toBeNull();
    expect(await prisma.job.count({ where: { shop: TEST_SHOP, kind: RECONCILE_JOB.name, status: "queued" } })).toBe(1);
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: "gone.myshopify.com" } })).uninstalledAt).not.toBeNull();
    expect(await finishInterruptedInstalls(prisma, new Date(), { reconcileIntervalMs: 300_000 })).toBe(0);
  });
});
