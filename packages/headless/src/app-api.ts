// The kit's two questions to the Referral Bridge app. There is no app proxy on a
// headless storefront, so the app answers them at its own address.
import { readLinksAnswer, type LinksState } from "../../../extensions/customer-account/src/links-api";

export type { LinksState as ShareLinksState };

export const SHARE_LINKS_PATH = "/api/headless/share-links";
export const OFFER_CAMPAIGNS_PATH = "/api/headless/offer-campaigns";

interface AppOptions {
  /** The app's address (its application_url), e.g. https://referral-bridge.example. */
  appUrl: string;
  /** The shop's myshopify.com domain. */
  shop: string;
  fetch?: typeof fetch;
}

const endpoint = (options: AppOptions, path: string) => {
  const url = new URL(path, options.appUrl.replace(/\/*$/, "/"));
  url.searchParams.set("shop", options.shop);
  return url;
};

/**
 * The signed-in customer's share links. `customerAccessToken` is the Customer
 * Account API access token of their session (Hydrogen:
 * `context.customerAccount.getAccessToken()`); the app asks Shopify whose it is
 * and answers only that customer's links. Never throws.
 */
export async function fetchShareLinks(options: AppOptions & { customerAccessToken: string | undefined }): Promise<LinksState> {
  if (!options.customerAccessToken) return { kind: "guest" };
  try {
    const response = await (options.fetch ?? fetch)(endpoint(options, SHARE_LINKS_PATH), {
      headers: { Authorization: `Bearer ${options.customerAccessToken}`, Accept: "application/json" },
    });
    const body: unknown = await response.json().catch(() => null);
    return readLinksAnswer(response.status, body);
  } catch {
    return { kind: "error" };
  }
}

/** The campaigns with a live friend's offer; none when the app cannot be reached (the code still counts). */
export async function fetchOfferCampaigns(options: AppOptions): Promise<string[]> {
  try {
    const response = await (options.fetch ?? fetch)(endpoint(options, OFFER_CAMPAIGNS_PATH), { headers: { Accept: "application/json" } });
    const body = (await response.json().catch(() => null)) as { campaigns?: unknown } | null;
    return response.ok && Array.isArray(body?.campaigns) ? body.campaigns.filter((uid): uid is string => typeof uid === "string") : [];
  } catch {
    return [];
  }
}
