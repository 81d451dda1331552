// What the thank-you / order status block shows, from the app's answer. No
// framework and no Shopify globals here, so the app's own test suite runs this
// file against the real backend route. Fetching and reading the answer is the
// customer account extension's code (one client for both extensions).
import { fetchShareLinks, type AccountLink, type LinksState, type NotEnrolledReason } from "../../customer-account/src/links-api";

export type { AccountLink, LinksState };

/** The app route of this extension (app/routes/api.checkout.share-link.tsx). */
export const SHARE_LINK_PATH = "/api/checkout/share-link";

export type ShareLinkView =
  | { kind: "loading" }
  /** An ambassador (perhaps enrolled just now): their links, never empty. */
  | { kind: "enrolled"; links: AccountLink[] }
  /** Signed in, not an ambassador, and the shop does not enrol automatically. */
  | { kind: "not_enrolled"; reason: NotEnrolledReason }
  /** A guest checkout, and the merchant wants guests invited to create an account. */
  | { kind: "guest"; accountUrl: string | null }
  | { kind: "error" }
  /** Nothing worth a block: the program is off, no link to share, or a guest the merchant leaves alone. */
  | { kind: "hidden" };

export interface ShareLinkSettings {
  /** The extension's `hide_for_guests` setting; unset means guests are invited. */
  hide_for_guests?: string | number | boolean;
}

/** The block's view of one answer. */
export function shareLinkView(state: LinksState, settings: ShareLinkSettings, storefrontUrl?: string | null): ShareLinkView {
  switch (state.kind) {
    case "loading":
      return { kind: "loading" };
    case "ok":
      return state.links.length > 0 ? { kind: "enrolled", links: state.links } : { kind: "hidden" };
    case "not_enrolled":
      return { kind: "not_enrolled", reason: state.reason };
    case "guest":
      return settings.hide_for_guests === true ? { kind: "hidden" } : { kind: "guest", accountUrl: accountUrl(storefrontUrl) };
    // The shop has no working connection: a buyer has nothing to do about it.
    case "unavailable":
      return { kind: "hidden" };
    default:
      return { kind: "error" };
  }
}

/** The shop's customer account page, where a buyer signs up with their order's email; null without a web URL. */
export function accountUrl(storefrontUrl?: string | null): string | null {
  if (!storefrontUrl) return null;
  try {
    const url = new URL(storefrontUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return new URL("/account", url.origin).href;
  } catch {
    return null;
  }
}

export interface FetchShareLinkOptions {
  /** The app's origin (APP_URL). */
  appUrl: string;
  /** shopify.sessionToken.get */
  getToken(): Promise<string>;
  fetch(url: string, init: RequestInit): Promise<Response>;
}

/** One request to this extension's route with a fresh session token, read defensively; never throws. */
export function fetchShareLinkState(options: FetchShareLinkOptions): Promise<LinksState> {
  return fetchShareLinks({ ...options, path: SHARE_LINK_PATH });
}

export interface ShareTarget {
  /** A key of the extension's locale file. */
  label: "shareEmail" | "shareX" | "shareFacebook" | "shareWhatsApp";
  href: string;
}

/** Where a link can be shared: email always; social networks when the campaign allows social sharing. */
export function shareTargets(link: AccountLink, text: { message: string; subject: string }): ShareTarget[] {
  const url = encodeURIComponent(link.url);
  const message = encodeURIComponent(text.message);
  const targets: ShareTarget[] = [
    {
      label: "shareEmail",
      href: `mailto:?subject=${encodeURIComponent(text.subject)}&body=${encodeURIComponent(`${text.message}\n\n${link.url}`)}`,
    },
  ];
  if (link.socialEnabled) {
    targets.push(
      { label: "shareX", href: `https://x.com/intent/post?text=${message}&url=${url}` },
      { label: "shareFacebook", href: `https://www.facebook.com/sharer/sharer.php?u=${url}` },
      { label: "shareWhatsApp", href: `https://wa.me/?text=${encodeURIComponent(`${text.message} ${link.url}`)}` },
    );
  }
  return targets;
}
