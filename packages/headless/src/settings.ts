// What the kit shares with the theme's tracking embed
// (extensions/referral-theme/blocks/referral-tracking.liquid and
// assets/referral-tracking.js) and with the app's order reader
// (app/domains/referrals/order-event.ts). The embed is a plain script Shopify
// serves as it is, so it cannot import these: test/packages/headless/agreement.test.ts
// holds the three to the same names, defaults and rule.

/** The hidden cart attributes the order carries as note_attributes, read by the app. */
export const CODE_ATTRIBUTE = "_referral_code";
export const CAMPAIGN_ATTRIBUTE = "_referral_campaign";

/** The first-party storage key of the kept code (the embed's too). */
export const STORAGE_KEY = "referral_bridge";

export type Attribution = "first_touch" | "last_touch";

export interface TrackingSettings {
  /** The landing URL's parameter that carries the referrer's code. */
  codeParam: string;
  /** The landing URL's parameter that carries the campaign id. */
  campaignParam: string;
  /** How long a kept code counts, in days (1 to 90). */
  lifetimeDays: number;
  /** first_touch keeps an unexpired code; last_touch replaces it with a newer one. */
  attribution: Attribution;
}

/** The embed's defaults. */
export const DEFAULT_SETTINGS: TrackingSettings = {
  codeParam: "mbsy",
  campaignParam: "campaignid",
  lifetimeDays: 30,
  attribution: "first_touch",
};

/** Settings given by the storefront, each checked; anything out of range falls back to the default. */
export function trackingSettings(given: Partial<TrackingSettings> = {}): TrackingSettings {
  const days = Number(given.lifetimeDays);
  return {
    codeParam: given.codeParam?.trim() || DEFAULT_SETTINGS.codeParam,
    campaignParam: given.campaignParam?.trim() || DEFAULT_SETTINGS.campaignParam,
    lifetimeDays: Number.isInteger(days) && days >= 1 && days <= 90 ? days : DEFAULT_SETTINGS.lifetimeDays,
    attribution: given.attribution === "last_touch" ? "last_touch" : "first_touch",
  };
}
