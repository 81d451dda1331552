import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { realSleep } from "../../../app/platform/http/sleep";
import { action as overviewAction, loader as overviewLoader } from "../../../app/routes/app._index";
import { BACKFILL_JOB } from "../../../app/domains/order-sync/job-kinds";
import { embedState, storefrontHealth } from "../../../app/domains/order-sync/storefront-health.server";
import { pixelSettingsFor, type EmbedSettings } from "../../../app/domains/order-sync/web-pixel.server";
import { adminRequest, callRoute, load } from "../../entry/admin/admin-requests";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { TEST_SHOP } from "../../support/shopify-requests";

// The Overview's part of order sync: the backfill offer and its progress,
// reconciliation's figures, and the setup guide's checks through the Admin API.

const sandbox = useTestSandbox();
const forShop = (embed: EmbedSettings | null) => pixelSettingsFor("https://bridge.example.com/", ["mbsy"], embed);
const pixel = forShop(null);
beforeEach(() => connectShop(sandbox));

/** settings_data.json as the theme editor writes it, Shopify's comment on top. */
const settingsData = (blocks: Record<string, unknown>) =>
  `/*\n * IMPORTANT: The contents of this file are auto-generated.\n */\n${JSON.stringify({ current: { blocks }, presets: { Default: {} } })}`;
const embed = (disabled: boolean) => ({ type: "shopify://apps/referral-bridge/blocks/referral-tracking/0d1c3a5e-6d2f-4f8e-9b0a-1c2d3e4f5a6b", disabled, settings: {} });

describe("the setup guide's checks", () => {
  it("reads the app embed's state from the live theme's settings", () => {
    expect(embedState(settingsData({ "1": embed(false) }))).toBe("on");
    expect(embedState(settingsData({ "1": embed(true) }))).toBe("off");
    expect(embedState(settingsData({ "1": { type: "shopify://apps/other-app/blocks/chat/1", disabled: false } }))).toBe("off");
    expect(embedState(JSON.stringify({ current: "Default", presets: { Default: { blocks: { a: embed(false) } } } }))).toBe("on");
  });

  it("asks Shopify with documents its schema accepts, and says when it cannot check", async () => {
    const shopify = new ShopifyAdminStandIn();
    const admin = { admin: shopify, sleep: realSleep };
    shopify.pixelScopesGranted = false;
    expect(await storefrontHealth(admin, forShop)).toMatchObject({
      embed: { state: "unknown", detail: expect.stringMatching(/read_themes/) },
      pixel: { state: "off", detail: expect.stringMatching(/write_pixels and read_customer_events/) },
    });
    shopify.pixelScopesGranted = true;
    shopify.themeSettingsData = settingsData({ "1": embed(false) });
    expect(await storefrontHealth(admin, forShop)).toMatchObject({ embed: { state: "on", detail: expect.stringMatching(/Dawn/) }, pixel: { state: "on" } });
    shopify.themeSettingsData = settingsData({ "1": embed(true) });
    expect((await storefrontHealth(admin, forShop)).embed.state).toBe("off");
    expect(shopify.refused.filter((r) => !r.errors.some((e) => /read_themes|No web pixel|write_pixels/.test(e)))).toEqual([]);
  });

  it("connects the web pixel with the extension's settings, and keeps them current", async () => {
    const shopify = new ShopifyAdminStandIn();
    const admin = { admin: shopify, sleep: realSleep };
    expect((await storefrontHealth(admin, forShop)).pixel).toEqual({ state: "on", detail: expect.stringMatching(/just connected it/) });
    expect(JSON.parse(shopify.webPixelSettings!)).toEqual(pixel);
    expect(shopify.callsOf("ConnectWebPixel", "ok")).toHaveLength(1);

    // Opened again with nothing changed: one query, no mutation.
    expect((await storefrontHealth(admin, forShop)).pixel).toEqual({ state: "on", detail: "The app's web pixel is connected." });
    expect(shopify.callsOf("ConnectWebPixel")).toHaveLength(1);
    expect(shopify.callsOf("UpdateWebPixel")).toHaveLength(0);

    // The merchant changed the link's parameter in Settings: the pixel's settings follow.
    const changed = (embed: EmbedSettings | null) => pixelSettingsFor("https://bridge.example.com", ["ref", "mbsy"], embed);
    expect((await storefrontHealth(admin, changed)).pixel.detail).toMatch(/settings were just updated/);
    expect(JSON.parse(shopify.webPixelSettings!)).toMatchObject({ codeParam: "ref", appUrl: "https://bridge.example.com" });
    expect(shopify.refused.filter((r) => !r.errors.some((e) => /read_themes|No web pixel/.test(e)))).toEqual([]);
  });

  it("says so when Shopify refuses the pixel's settings", async () => {
    const shopify = new ShopifyAdminStandIn();
    const wrong = () => ({ ...pixel, unknownSetting: "x" }) as unknown as typeof pixel;
    expect((await storefrontHealth({ admin: shopify, sleep: realSleep }, wrong)).pixel).toEqual({
      state: "off",
      detail: expect.stringMatching(/Shopify refused to connect the web pixel: Settings do not match/),
    });
    expect(shopify.webPixelSettings).toBeNull();
  });

  it("keeps a code the way the theme embed does: its parameters, first or last touch, and lifetime", async () => {
    const shopify = new ShopifyAdminStandIn();
    const merchantChose = { code_param: "ref", campaign_param: "cmp", lifetime_days: 60, attribution: "last_touch" };
    shopify.themeSettingsData = settingsData({ "1": { ...embed(false), settings: merchantChose } });
    await storefrontHealth({ admin: shopify, sleep: realSleep }, forShop);
    expect(JSON.parse(shopify.webPixelSettings!)).toEqual({ appUrl: "https://bridge.example.com", codeParam: "ref", campaignParam: "cmp", attribution: "last_touch", lifetimeDays: "60" });
    // Nonsense in the theme's settings falls back to the embed's defaults.
    expect(pixelSettingsFor("https://a.example", ["mbsy"], { code_param: "<x>", lifetime_days: 500, attribution: "sometimes" })).toMatchObject({
      codeParam: "mbsy",
      attribution: "first_touch",
      lifetimeDays: "30",
    });
  });
});

describe("the Overview's past orders", () => {
  const backfill = async (days: string) => callRoute(overviewAction, await adminRequest("/app?index", { form: { intent: "backfill", days } }));

  it("starts a backfill of the last 30 days as a job, and shows its progress", async () => {
    expect(await backfill("30")).toEqual({ ok: true });
    const job = await prisma.job.findFirstOrThrow({ where: { kind: BACKFILL_JOB.name } });
    expect(job.lane).toBe(`order-sync:${TEST_SHOP}`);
    await prisma.orderSync.update({ where: { shop: TEST_SHOP }, data: { backfillTotal: 400, backfillSeen: 100 } });
    const data = await load(overviewLoader, "/app");
    expect(data.orderSync.backfill).toMatchObject({ status: "running", days: 30, total: 400, seen: 100 });
    // A second one waits for the first.
    expect(await backfill("30")).toMatchObject({ ok: false, error: { message: expect.stringMatching(/already running/) } });
  });

  it("refuses more than 60 days without read_all_orders, saying why, and a number of days that is not one", async () => {
    expect(await backfill("90")).toMatchObject({ ok: false, error: { message: expect.stringMatching(/read_all_orders/) } });
    expect(await backfill("ten")).toMatchObject({ ok: false, error: { message: expect.stringMatching(/from 1 to 365/) } });
    expect(await prisma.job.count({ where: { kind: BACKFILL_JOB.name } })).toBe(0);
    await prisma.session.updateMany({ where: { shop: TEST_SHOP }, data: { scope: "read_orders,read_all_orders" } });
    expect(await backfill("90")).toEqual({ ok: true });
  });

  it("shows when the shop was last reconciled and what webhooks missed", async () => {
    const at = new Date("2026-11-23T10:00:00Z");
    await prisma.orderSync.create({ data: { shop: TEST_SHOP, reconciledAt: at, missedOrders: 3, missedChanges: 1 } });
    const data = await load(overviewLoader, "/app");
    expect(data.orderSync).toMatchObject({ reconciledAt: at.toISOString(), missedOrders: 3, missedChanges: 1, backfill: null, allOrders: false });
    expect(data.storefront.embed.state).toBe("unknown");
  });
});
