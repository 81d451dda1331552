import type { Ambassador, CampaignLink } from "../../platform/referral-api";
import { shareCodeOfLink } from "../offers";
import { webUrlOrNull } from "../../platform/text/web-url";

// What the share link metafields on an ambassador's Shopify customer hold.
// The definitions are declared in shopify.app.toml
// ([customer.metafields.app.share_link] and [...share_code]); `$app` is the
// app-reserved namespace Shopify turns into app--<client id>.

export const SHARE_LINK_NAMESPACE = "$app";
export const SHARE_LINK_FIELDS = {
  link: { key: "share_link", type: "url" },
  code: { key: "share_code", type: "single_line_text_field" },
} as const;

export interface ShareLinkValues {
  link: string;
  code: string;
}

/**
 * The links worth showing a customer: web URLs only, in the campaigns the shop
 * records orders in (a link elsewhere would earn nothing here). A shop that
 * has not chosen campaigns yet shows every campaign except the service's
 * test ones.
 */
export function linksWorthSharing(links: CampaignLink[], tracked: string[]): (CampaignLink & { url: string })[] {
  return links
    .filter((link): link is CampaignLink & { url: string } => webUrlOrNull(link.url) !== null)
    .filter((link) => (tracked.length > 0 ? link.campaignUid !== null && tracked.includes(link.campaignUid) : link.sandbox !== true));
}

/** Banned and unsubscribed ambassadors are not active: their link comes off the customer. */
export function isActiveAmbassador(ambassador: Pick<Ambassador, "status">): boolean {
  return ambassador.status !== "banned" && ambassador.status !== "unsubscribed";
}

/**
 * The link and code the customer should carry: the first link the blocks
 * show (the first tracked campaign's), or null when the ambassador is not
 * active or has no link worth sharing.
 */
export function shareLinkValues(ambassador: Pick<Ambassador, "status" | "campaignLinks">, tracked: string[]): ShareLinkValues | null {
  if (!isActiveAmbassador(ambassador)) return null;
  for (const link of linksWorthSharing(ambassador.campaignLinks, tracked)) {
    const code = shareCodeOfLink(link.url);
    if (code) return { link: link.url, code };
  }
  return null;
}
