import { adminCall, type AdminCallDeps } from "../../platform/shopify-admin/admin-call.server";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";

// The app's web pixel (extensions/referral-pixel) runs on a shop's storefront
// only once the app has created it for the shop (webPixelCreate, scope
// write_pixels) with its settings: where to send signals and which URL
// parameters hold the code. The Overview keeps it connected and its settings
// current each time it opens.

/** The settings the pixel's shopify.extension.toml declares, all text. */
export interface PixelSettings {
  appUrl: string;
  codeParam: string;
  campaignParam: string;
  attribution: "first_touch" | "last_touch";
  lifetimeDays: string;
}

/** The embed's block settings as the theme editor stores them (only those the merchant changed). */
export interface EmbedSettings {
  code_param?: unknown;
  campaign_param?: unknown;
  lifetime_days?: unknown;
  attribution?: unknown;
}

/** The pixel's settings for a shop, made from the theme embed's; without the embed's, its defaults. */
export type PixelSettingsFor = (embed: EmbedSettings | null) => PixelSettings;

const PARAM = /^[A-Za-z0-9_-]{1,40}$/;
const param = (value: unknown, fallback: string) => (typeof value === "string" && PARAM.test(value.trim()) ? value.trim() : fallback);

/**
 * The embed's settings (extensions/referral-theme/blocks/referral-tracking.liquid,
 * the same defaults), so both keep a code the same way; the link parameter
 * falls back to the first the shop reads on orders.
 */
export function pixelSettingsFor(appUrl: string, codeParams: string[], embed: EmbedSettings | null = null): PixelSettings {
  const days = Number(embed?.lifetime_days);
  return {
    appUrl: appUrl.replace(/\/$/, ""),
    codeParam: param(embed?.code_param, codeParams[0] ?? "mbsy"),
    campaignParam: param(embed?.campaign_param, "campaignid"),
    attribution: embed?.attribution === "last_touch" ? "last_touch" : "first_touch",
    lifetimeDays: String(Number.isInteger(days) && days >= 1 && days <= 90 ? days : 30),
  };
}

export const WEB_PIXEL_QUERY = `#graphql
query AppWebPixel {
  webPixel { id settings }
}`;

export const WEB_PIXEL_CREATE = `#graphql
mutation ConnectWebPixel($settings: JSON!) {
  webPixelCreate(webPixel: { settings: $settings }) {
    webPixel { id settings }
    userErrors { field message code }
  }
}`;

export const WEB_PIXEL_UPDATE = `#graphql
mutation UpdateWebPixel($id: ID!, $settings: JSON!) {
  webPixelUpdate(id: $id, webPixel: { settings: $settings }) {
    webPixel { id settings }
    userErrors { field message code }
  }
}`;

type Answer = { webPixel: { id: string; settings: unknown } | null; userErrors: { message: string }[] };

export type PixelState = { state: "on"; detail: string } | { state: "off" | "unknown"; detail: string };

/** Shopify answers the settings as a JSON string (or, from some clients, the object itself). */
function settingsOf(value: unknown): Record<string, unknown> {
  try {
    const parsed = typeof value === "string" ? JSON.parse(value) : value;
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const same = (have: Record<string, unknown>, want: PixelSettings) => Object.entries(want).every(([key, value]) => have[key] === value);

async function existingPixel(admin: AdminCallDeps): Promise<{ id: string; settings: unknown } | null> {
  try {
    return (await adminCall<{ webPixel: { id: string; settings: unknown } | null }>(admin, WEB_PIXEL_QUERY)).webPixel;
  } catch (error) {
    // Shopify answers the query with an error, not null, when the app has no pixel on the shop.
    if (error instanceof AdminCallError && /no web pixel/i.test(error.message)) return null;
    throw error;
  }
}

const refusedScope = (error: unknown) => error instanceof Error && /write_pixels|read_customer_events|access denied/i.test(error.message);

/** Connects the pixel, or brings its settings up to date; says what it found. */
export async function ensureWebPixel(admin: AdminCallDeps, wanted: PixelSettings): Promise<PixelState> {
  try {
    const pixel = await existingPixel(admin);
    if (pixel && same(settingsOf(pixel.settings), wanted)) return { state: "on", detail: "The app's web pixel is connected." };
    const settings = JSON.stringify(wanted);
    const answer = pixel
      ? (await adminCall<{ webPixelUpdate: Answer }>(admin, WEB_PIXEL_UPDATE, { id: pixel.id, settings })).webPixelUpdate
      : (await adminCall<{ webPixelCreate: Answer }>(admin, WEB_PIXEL_CREATE, { settings })).webPixelCreate;
    if (answer.userErrors.length > 0 || !answer.webPixel) {
      return { state: "off", detail: `Shopify refused to connect the web pixel: ${answer.userErrors.map((e) => e.message).join("; ") || "no pixel returned"}.` };
    }
    return { state: "on", detail: pixel ? "The app's web pixel is connected (its settings were just updated)." : "The app's web pixel is connected (the app just connected it)." };
  } catch (error) {
    if (refusedScope(error)) {
      return { state: "off", detail: "The app can't connect its web pixel: it needs the write_pixels and read_customer_events permissions. Approve the app's updated permissions." };
    }
    return { state: "unknown", detail: "Shopify didn't answer the check of the web pixel; it runs again when you open this page." };
  }
}
