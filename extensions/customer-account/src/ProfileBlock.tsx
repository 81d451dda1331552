// Customer account profile block: the signed-in customer's referral share links,
// each with a copy button and an email share link, and their balances.
// Data: the app's /api/customer-account/links (see links-api.ts).
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { APP_URL } from "./app-url";
import { fetchShareLinks, NOT_ENROLLED_TEXT, type AccountAmbassador, type AccountLink, type LinksState } from "./links-api";

export default async () => {
  render(<ReferralLinks />, document.body);
};

function ReferralLinks() {
  const [state, setState] = useState<LinksState>({ kind: "loading" });

  useEffect(() => {
    let current = true;
    fetchShareLinks({
      appUrl: APP_URL,
      getToken: () => shopify.sessionToken.get(),
      fetch: (url, init) => fetch(url, init),
    }).then((next) => {
      if (current) setState(next);
    });
    return () => {
      current = false;
    };
  }, []);

  // Customer accounts always have a signed-in customer; without one there is nothing to show.
  if (state.kind === "guest") return null;
  const t = shopify.i18n.translate;

  return (
    <s-section heading={t("heading")}>
      <s-stack direction="block" gap="base">
        <s-paragraph>{t("intro")}</s-paragraph>
        <Body state={state} />
      </s-stack>
    </s-section>
  );
}

function Body({ state }: { state: LinksState }) {
  const t = shopify.i18n.translate;
  switch (state.kind) {
    case "loading":
      return <s-spinner accessibilityLabel={t("loading")} />;
    case "not_enrolled":
      return <s-paragraph>{t(NOT_ENROLLED_TEXT[state.reason])}</s-paragraph>;
    case "unavailable":
      return <s-paragraph>{t("unavailable")}</s-paragraph>;
    case "ok":
      return (
        <s-stack direction="block" gap="base">
          <Summary ambassador={state.ambassador} />
          {state.links.length === 0 ? (
            <s-paragraph>{t("empty")}</s-paragraph>
          ) : (
            state.links.map((link, index) => (
              <LinkCard key={link.url} id={`referral-link-${index}`} link={link} pointName={state.ambassador.pointName} />
            ))
          )}
        </s-stack>
      );
    default:
      return <s-paragraph>{t("error")}</s-paragraph>;
  }
}

function money(value: string): string {
  const number = Number(value);
  if (!Number.isFinite(number)) return value;
  try {
    return shopify.i18n.formatCurrency(number);
  } catch {
    return number.toFixed(2);
  }
}

function points(value: string, pointName: string | null): string {
  const number = Number(value);
  const count = Number.isFinite(number) ? shopify.i18n.formatNumber(number) : value;
  return shopify.i18n.translate("points", { count, name: pointName ?? shopify.i18n.translate("defaultPointName") });
}

function Summary({ ambassador }: { ambassador: AccountAmbassador }) {
  const t = shopify.i18n.translate;
  const { pointName } = ambassador;
  return (
    <s-stack direction="block" gap="small-200">
      <s-text type="strong">
        {t("balance", { money: money(ambassador.balanceMoney), points: points(ambassador.balancePoints, pointName) })}
      </s-text>
      <s-text>{t("paid", { money: money(ambassador.moneyPaid), points: points(ambassador.pointsPaid, pointName) })}</s-text>
      <s-text>{t("referrals", { count: shopify.i18n.formatNumber(ambassador.uniqueReferrals) })}</s-text>
    </s-stack>
  );
}

function LinkCard({ id, link, pointName }: { id: string; link: AccountLink; pointName: string | null }) {
  const t = shopify.i18n.translate;
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const mail = `mailto:?subject=${encodeURIComponent(t("emailSubject"))}&body=${encodeURIComponent(`${t("shareMessage")}\n\n${link.url}`)}`;

  return (
    <s-stack direction="block" gap="small-200">
      <s-heading>{link.campaignName}</s-heading>
      {link.description ? <s-paragraph>{link.description}</s-paragraph> : null}
      <s-text-field label={t("linkLabel", { campaign: link.campaignName })} value={link.url} readOnly />
      <s-clipboard-item id={id} text={link.url} onCopy={() => setCopy("copied")} onCopyError={() => setCopy("failed")} />
      <s-stack direction="inline" gap="base" alignItems="center">
        <s-button command="--copy" commandFor={id}>
          {copy === "copied" ? t("copied") : t("copy")}
        </s-button>
        <s-link href={mail}>{t("shareEmail")}</s-link>
      </s-stack>
      {copy === "failed" ? <s-text tone="critical">{t("copyFailed")}</s-text> : null}
      <s-text color="subdued">
        {t("earned", { money: money(link.totalMoneyEarned), points: points(link.totalPointsEarned, pointName) })}
      </s-text>
    </s-stack>
  );
}
