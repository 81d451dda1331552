// Where the app's extensions are placed in the shop, as App Bridge's
// app.extensions() reports them in the admin (the theme's embed and block:
// from the published theme only; the UI extensions: the targets they render
// on). Plain data: the setup guide reads it in the browser.

/** Handles from the extensions' own files (extensions/*: block file names and shopify.extension.toml handles). */
export const EXTENSION_HANDLES = {
  embed: "referral-tracking",
  linksBlock: "referral-links",
  checkout: "referral-share-link",
  account: "referral-links-account",
  pos: "referral-pos",
} as const;

export const TARGETS = {
  thankYou: "purchase.thank-you.block.render",
  orderStatus: "customer-account.order-status.block.render",
  profile: "customer-account.profile.block.render",
  posTile: "pos.home.tile.render",
} as const;

/** on: placed and live; off: available but not placed; unknown: Shopify can't place it here (e.g. a theme without app blocks). */
export type Placement = "on" | "off" | "unknown";

export interface ExtensionPlacements {
  embed: Placement;
  linksBlock: Placement;
  thankYou: Placement;
  orderStatus: Placement;
  profile: Placement;
  /** The POS home screen's Referral tile. */
  posTile: Placement;
}

/** What app.extensions() answers, as far as the app reads it (App Bridge's ExtensionInfo). */
export interface ExtensionInfoLike {
  handle: string;
  type: string;
  activations: { target: string; handle?: string; status?: string }[];
}

function themeBlock(infos: ExtensionInfoLike[], handle: string): Placement {
  const block = infos.filter((info) => info.type === "theme_app_extension").flatMap((info) => info.activations).find((a) => a.handle === handle);
  if (!block) return "off";
  return block.status === "active" ? "on" : block.status === "unavailable" ? "unknown" : "off";
}

function uiTarget(infos: ExtensionInfoLike[], handle: string, target: string): Placement {
  const extension = infos.find((info) => info.type === "ui_extension" && info.handle === handle);
  return extension?.activations.some((a) => a.target === target) ? "on" : "off";
}

export function extensionPlacements(infos: ExtensionInfoLike[]): ExtensionPlacements {
  return {
    embed: themeBlock(infos, EXTENSION_HANDLES.embed),
    linksBlock: themeBlock(infos, EXTENSION_HANDLES.linksBlock),
    thankYou: uiTarget(infos, EXTENSION_HANDLES.checkout, TARGETS.thankYou),
    orderStatus: uiTarget(infos, EXTENSION_HANDLES.checkout, TARGETS.orderStatus),
    profile: uiTarget(infos, EXTENSION_HANDLES.account, TARGETS.profile),
    posTile: uiTarget(infos, EXTENSION_HANDLES.pos, TARGETS.posTile),
  };
}

/**
 * The admin's deep links (Shopify's documented theme editor parameters):
 * the editor with the embed switched on (activateAppId), and with the links
 * block added to the home page in a new Apps section (addAppBlockId). The
 * checkout and accounts editor has no documented link that places a single
 * block, so its step links to Settings > Checkout, where Customize opens it.
 */
export function setupLinks(shop: string, apiKey: string) {
  const admin = `https://${shop}/admin`;
  const editor = `${admin}/themes/current/editor`;
  return {
    embed: `${editor}?context=apps&template=index&activateAppId=${apiKey}/${EXTENSION_HANDLES.embed}`,
    linksBlock: `${editor}?template=index&addAppBlockId=${apiKey}/${EXTENSION_HANDLES.linksBlock}&target=newAppsSection`,
    checkoutEditor: `${admin}/settings/checkout`,
  };
}
