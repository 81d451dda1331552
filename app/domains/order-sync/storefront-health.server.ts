import { adminCall, type AdminCallDeps } from "../../platform/shopify-admin/admin-call.server";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { ensureWebPixel, type EmbedSettings, type PixelSettingsFor } from "./web-pixel.server";

// What the Overview's setup guide can learn from the Admin API about the
// storefront's tracking: whether the app embed is switched on in the live
// theme (its config/settings_data.json, which needs read_themes) and whether
// the app's web pixel is connected (webPixel; connected on the way if not,
// see web-pixel.server.ts). Anything else the guide says it cannot check.

export type Check = { state: "on" | "off"; detail: string } | { state: "unknown"; detail: string };

export interface StorefrontHealth {
  embed: Check;
  pixel: Check;
}

/** The handle of the theme app embed block (extensions/referral-theme/blocks/referral-tracking.liquid). */
export const EMBED_BLOCK = "referral-tracking";

export const THEME_SETTINGS_QUERY = `#graphql
query LiveThemeSettings {
  themes(first: 1, roles: [MAIN]) {
    nodes {
      id
      name
      files(filenames: ["config/settings_data.json"], first: 1) {
        nodes { filename body { ... on OnlineStoreThemeFileBodyText { content } } }
      }
    }
  }
}`;

interface ThemeSettingsAnswer {
  themes: { nodes: { id: string; name: string; files: { nodes: { body: { content?: string } }[] } | null }[] } | null;
}

type Block = { type?: unknown; disabled?: unknown; settings?: unknown };

/** What the theme editor keeps of the embed: on or off, and the settings the merchant changed. */
export interface EmbedBlock {
  state: "on" | "off";
  settings: EmbedSettings;
}

/**
 * The app's embed in settings_data.json. The theme editor writes app embeds
 * as blocks of type shopify://apps/<app>/blocks/<handle>/<id>; a block
 * switched off stays with "disabled": true.
 */
export function embedBlock(settingsData: string, blockHandle = EMBED_BLOCK): EmbedBlock {
  // Shopify puts a comment above the JSON.
  const parsed = JSON.parse(settingsData.replace(/^\s*\/\*[\s\S]*?\*\//, "")) as { current?: unknown; presets?: Record<string, unknown> };
  const current = typeof parsed.current === "string" ? parsed.presets?.[parsed.current] : parsed.current;
  const blocks = Object.values(((current as { blocks?: Record<string, Block> } | undefined)?.blocks ?? {}) as Record<string, Block>);
  const embed = blocks.find((block) => typeof block.type === "string" && block.type.startsWith("shopify://apps/") && block.type.includes(`/blocks/${blockHandle}/`));
  const settings = embed?.settings && typeof embed.settings === "object" ? (embed.settings as EmbedSettings) : {};
  return { state: embed && embed.disabled !== true ? "on" : "off", settings };
}

export const embedState = (settingsData: string, blockHandle = EMBED_BLOCK): "on" | "off" => embedBlock(settingsData, blockHandle).state;

const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function embedCheck(admin: AdminCallDeps): Promise<{ check: Check; settings: EmbedSettings | null }> {
  try {
    const data = await adminCall<ThemeSettingsAnswer>(admin, THEME_SETTINGS_QUERY);
    const theme = data.themes?.nodes[0];
    const content = theme?.files?.nodes[0]?.body.content;
    if (!theme || content === undefined) return { check: { state: "unknown", detail: "Shopify didn't show the live theme's settings." }, settings: null };
    const embed = embedBlock(content);
    const check: Check =
      embed.state === "on"
        ? { state: "on", detail: `Referral tracking is on in your live theme (${theme.name}).` }
        : { state: "off", detail: `Referral tracking is off in your live theme (${theme.name}).` };
    return { check, settings: embed.settings };
  } catch (error) {
    if (/read_themes|access denied/i.test(failure(error))) {
      return { check: { state: "unknown", detail: "The app can't read your theme (it needs the read_themes permission), so it can't check the embed." }, settings: null };
    }
    return { check: { state: "unknown", detail: "Shopify didn't answer the check of your theme; it runs again when you open this page." }, settings: null };
  }
}

/**
 * The embed's check, then the pixel's: the pixel keeps a code as the embed
 * does (its parameters, first or last touch, lifetime), so its settings are
 * made from the embed's when the theme can be read.
 */
export async function storefrontHealth(admin: AdminCallDeps, pixelFor: PixelSettingsFor): Promise<StorefrontHealth> {
  const embed = await embedCheck(admin);
  return { embed: embed.check, pixel: await ensureWebPixel(admin, pixelFor(embed.settings)) };
}

/** Shopify's client, as authenticate.admin gives it. */
type AdminClient = AdminCallDeps["admin"];

/**
 * The checks for a page: at most `ms`, so that a slow Shopify does not hold
 * up the Overview; what did not answer in time is "unknown".
 */
export async function storefrontHealthWithin(admin: AdminClient, pixelFor: PixelSettingsFor, ms = 3_000): Promise<StorefrontHealth> {
  const late: Check = { state: "unknown", detail: "Shopify didn't answer the check in time; it runs again when you open this page." };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<StorefrontHealth>((resolve) => {
    timer = setTimeout(() => resolve({ embed: late, pixel: late }), ms);
  });
  // No pacing waits on a page: a throttled check is simply unknown this time.
  const checks = storefrontHealth({ admin, sleep: async () => {} }, pixelFor);
  try {
    return await Promise.race([checks, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The checks with the shop's offline Admin access; without any (uninstalled), both unknown. */
export async function shopStorefrontHealth(adminForShop: AdminForShop, shop: string, pixelFor: PixelSettingsFor, ms?: number): Promise<StorefrontHealth> {
  const access = await adminForShop(shop);
  if (!access.ok) return { embed: { state: "unknown", detail: access.reason }, pixel: { state: "unknown", detail: access.reason } };
  return storefrontHealthWithin(access.admin, pixelFor, ms);
}
