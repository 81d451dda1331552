// The buyer's share link on the thank-you page and the order status page, with
// a copy button and share links. Both targets render this component; each
// passes in its own `shopify` API (see ThankYou.tsx and OrderStatus.tsx).
import { useEffect, useState } from "preact/hooks";
import { APP_URL } from "../../customer-account/src/app-url";
import { NOT_ENROLLED_TEXT } from "../../customer-account/src/links-api";
import {
  fetchShareLinkState,
  shareLinkView,
  shareTargets,
  type AccountLink,
  type LinksState,
  type ShareLinkSettings,
} from "./share-link-state";

/** What the block needs from the target's API. */
export interface BlockHost {
  getToken(): Promise<string>;
  /** The merchant's settings; read while rendering, so an editor change shows at once. */
  settings(): ShareLinkSettings;
  storefrontUrl?: string;
  t(key: string, replacements?: Record<string, string>): string;
}

export function ShareLinkBlock({ host }: { host: BlockHost }) {
  const [state, setState] = useState<LinksState>({ kind: "loading" });

  useEffect(() => {
    let current = true;
    fetchShareLinkState({ appUrl: APP_URL, getToken: () => host.getToken(), fetch: (url, init) => fetch(url, init) }).then((next) => {
      if (current) setState(next);
    });
    return () => {
      current = false;
    };
  }, []);

  const view = shareLinkView(state, host.settings(), host.storefrontUrl);
  const { t } = host;
  switch (view.kind) {
    case "hidden":
      return null;
    case "loading":
      return <s-spinner accessibilityLabel={t("loading")} />;
    case "guest":
      return (
        <s-section heading={t("guestHeading")}>
          <s-stack direction="block" gap="small-200">
            <s-paragraph>{t("guestInvite")}</s-paragraph>
            {view.accountUrl ? <s-link href={view.accountUrl}>{t("guestAction")}</s-link> : null}
          </s-stack>
        </s-section>
      );
    case "not_enrolled":
      return (
        <s-section heading={t("heading")}>
          <s-paragraph>{t(NOT_ENROLLED_TEXT[view.reason])}</s-paragraph>
        </s-section>
      );
    case "error":
      return (
        <s-section heading={t("heading")}>
          <s-paragraph>{t("error")}</s-paragraph>
        </s-section>
      );
    case "enrolled":
      return (
        <s-section heading={t("heading")}>
          <s-stack direction="block" gap="base">
            <s-paragraph>{t("intro")}</s-paragraph>
            {view.links.map((link, index) => (
              <LinkRow key={link.url} id={`referral-share-link-${index}`} link={link} host={host} />
            ))}
          </s-stack>
        </s-section>
      );
  }
}

function LinkRow({ id, link, host }: { id: string; link: AccountLink; host: BlockHost }) {
  const { t } = host;
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const targets = shareTargets(link, { message: t("shareMessage"), subject: t("emailSubject") });
  return (
    <s-stack direction="block" gap="small-200">
      <s-text-field label={t("linkLabel", { campaign: link.campaignName })} value={link.url} readOnly />
      <s-clipboard-item id={id} text={link.url} onCopy={() => setCopy("copied")} onCopyError={() => setCopy("failed")} />
      <s-stack direction="inline" gap="base" alignItems="center">
        <s-button command="--copy" commandFor={id}>
          {copy === "copied" ? t("copied") : t("copy")}
        </s-button>
        {targets.map((target) => (
          <s-link key={target.label} href={target.href} target="_blank">
            {t(target.label)}
          </s-link>
        ))}
      </s-stack>
      {copy === "failed" ? <s-text tone="critical">{t("copyFailed")}</s-text> : null}
    </s-stack>
  );
}
