import type { Ambassador, Campaign, Store } from "../state";

export function isActiveCampaign(campaign: Campaign, now = Date.now()): boolean {
  return campaign.startMs <= now && (campaign.endMs === null || campaign.endMs >= now);
}

export function activeCampaigns(store: Store, now = Date.now()): Campaign[] {
  return [...store.campaigns.values()].filter((c) => isActiveCampaign(c, now));
}

/** Share links are served by the sandbox itself (GET /s/<code> redirects to the landing page). */
export function shareUrl(store: Store, shortCode: string): string {
  return `${store.baseUrl}/s/${shortCode}`;
}

/** The ambassador's main link: the first active public production campaign. */
export function memorableUrl(store: Store, ambassador: Ambassador): string {
  const campaigns = activeCampaigns(store);
  const main = campaigns.find((c) => !c.private && !c.sandbox) ?? campaigns[0];
  const code = main ? ambassador.shortCodes.get(main.uid) : ambassador.shortCodes.values().next().value;
  return code ? shareUrl(store, code) : store.baseUrl;
}

/** The landing page URL with required_query_params filled in (or `mbsy=<code>`). */
export function landingUrl(campaign: Campaign, shortCode: string): string {
  const template = campaign.requiredQueryParams ?? "mbsy={short_code}";
  const query = template
    .replaceAll("{short_code}", encodeURIComponent(shortCode))
    .replaceAll("{campaign_uid}", encodeURIComponent(campaign.uid));
  return `${campaign.landingPage}${campaign.landingPage.includes("?") ? "&" : "?"}${query}`;
}
