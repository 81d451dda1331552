import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { setupLinks, type ExtensionPlacements, type Placement } from "../extension-status";
import { useExtensionPlacements } from "./extension-placements";
import { SetupGuide, type SetupStep } from "./SetupGuide";

type Check = { state: "on" | "off" | "unknown"; detail: string };

/** What the Overview's loader knows for the guide. */
export interface SetupFacts {
  /** The shop's name without .myshopify.com. */
  store: string;
  connection: { status: string };
  trackedCampaigns: number;
  /** An order arrived with the embed's cart attribute. */
  embedSeen: boolean;
  /** The server's own checks: the embed from the live theme's settings, the web pixel. */
  storefront: { embed: Check; pixel: Check };
}

/** What Shopify can't tell the app, said once under the steps. */
const UNCHECKABLE = [
  "whether a headless storefront uses the headless kit, or a custom checkout loads the pixel;",
  "whether a visitor's cookie consent lets the pixel send anything;",
  "whether the theme editor's change has been published to every theme you switch to later.",
];

const said: Record<Placement, (what: string) => string> = {
  on: (what) => `Shopify reports ${what} as placed.`,
  off: (what) => `Shopify reports ${what} as not placed yet.`,
  unknown: (what) => `Shopify can't place ${what} in your published theme (it may not support app blocks).`,
};

/** The steps, from the server's facts and, in the admin, App Bridge's report of the extensions (null: not there). */
export function overviewSetupSteps(facts: SetupFacts, placements: ExtensionPlacements | null, apiKey: string): SetupStep[] {
  const links = setupLinks(`${facts.store}.myshopify.com`, apiKey);
  const embedOn = placements ? placements.embed === "on" : facts.storefront.embed.state === "on";
  const uiStatus = (state: Placement | undefined, what: string) => (state ? said[state](what) : "Open the app in your Shopify admin to see whether it's placed.");
  return [
    {
      id: "connect",
      title: "Connect your referral program",
      description: "Enter the API username and token of your referral program account. The app checks them before saving.",
      done: facts.connection.status === "connected",
      action: { content: "Connect in Settings", url: "/app/settings" },
    },
    {
      id: "campaigns",
      title: "Choose the campaigns to track",
      description: "Referred orders are recorded in these campaigns, and their commissions follow each campaign's rewards.",
      done: facts.trackedCampaigns > 0,
      action: { content: "Choose campaigns", url: "/app/settings" },
    },
    {
      id: "embed",
      title: "Turn on referral tracking in your theme",
      description:
        "The button opens the theme editor with Referral tracking switched on under App embeds: save the theme to keep it. It keeps the referrer's code with the cart, so every order carries it. This step is also ticked when the first order arrives with a code.",
      status: placements
        ? placements.embed === "on"
          ? "Referral tracking is on in your published theme."
          : "Referral tracking is off in your published theme."
        : facts.storefront.embed.detail,
      done: embedOn || facts.embedSeen,
      action: { content: "Turn on in the theme editor", url: links.embed, external: true },
    },
    {
      id: "pixel",
      title: "Connect the referral pixel",
      description:
        "The app's web pixel sees checkouts the theme can't (headless storefronts, checkout pages), so referred orders are credited even when the cart loses its code. It connects when you open the app after installing or updating it.",
      status: facts.storefront.pixel.detail,
      done: facts.storefront.pixel.state === "on",
    },
    {
      id: "links-block",
      title: "Show customers their share links in your store",
      optional: true,
      description:
        "The button opens the theme editor with the Referral links block added to your home page, in a section of its own: move it where you like (a page of its own, the account page of a classic theme) and save. Signed-in customers see their links; others are asked to sign in.",
      status: placements ? said[placements.linksBlock]("the Referral links block") : uiStatus(undefined, ""),
      done: placements?.linksBlock === "on",
      action: { content: "Add the block in the theme editor", url: links.linksBlock, external: true },
    },
    {
      id: "thank-you",
      title: "Show the share link after a purchase",
      optional: true,
      description:
        "In Settings > Checkout, choose Customize to open the checkout and accounts editor. On the Thank you page, add the app block Referral share link (Add block > Apps), for example under the order summary; then choose the Order status page in the page menu and add it there too. Save.",
      status: placements
        ? placements.thankYou === "on" && placements.orderStatus === "on"
          ? "Shopify reports the share link on the Thank you and Order status pages."
          : placements.thankYou === "on" || placements.orderStatus === "on"
          ? `Shopify reports the share link on the ${placements.thankYou === "on" ? "Thank you" : "Order status"} page only.`
          : uiStatus("off", "the share link")
        : uiStatus(undefined, ""),
      done: placements?.thankYou === "on" && placements.orderStatus === "on",
      action: { content: "Open checkout settings", url: links.checkoutEditor, external: true },
    },
    {
      id: "account",
      title: "Show share links in customer accounts",
      optional: true,
      description:
        "In Settings > Checkout, choose Customize, then Profile in the page menu of the checkout and accounts editor. Add the app block Referral links (Add block > Apps) and save. It shows in new customer accounts.",
      status: placements ? said[placements.profile]("the Referral links block on the Profile page") : uiStatus(undefined, ""),
      done: placements?.profile === "on",
      action: { content: "Open checkout settings", url: links.checkoutEditor, external: true },
    },
    {
      id: "pos",
      title: "Take referrals at the counter with Shopify POS",
      optional: true,
      description:
        "In the Shopify POS app, add the Referral tile to the home screen (Edit, then Add tile) and the Referral program block to customer details. Staff scan or enter a friend's code, and the sale is credited like an online order. A sale is credited only when it has a customer or an email: add the customer to the cart.",
      status: placements ? said[placements.posTile]("the Referral tile on the POS home screen") : uiStatus(undefined, ""),
      done: placements?.posTile === "on",
    },
    {
      id: "headless",
      title: "Selling on a headless storefront (Hydrogen or your own)?",
      optional: true,
      description:
        "A headless storefront has no theme, so the tracking embed and the Referral links block don't run there. Your developer adds the app's headless kit instead: it keeps the referrer's code once the visitor accepts cookies, puts it on the cart with the friend's discount, and shows signed-in customers their share links. It needs the storefront's Storefront API token, its customer accounts (Customer Account API) and Shopify's cookie banner (Customer Privacy API). The app's guide, under Headless storefronts, lists the steps.",
      status: "Shopify can't tell the app whether a headless storefront uses the kit.",
      done: false,
    },
  ];
}

const HIDDEN_KEY = "referral-bridge:setup-guide-hidden";

/**
 * The Overview's setup guide: gone once every step is done. Once the steps
 * the program needs are done, the merchant may hide it with optional steps
 * left (kept in this browser).
 */
export function OverviewSetupGuide({ facts }: { facts: SetupFacts }) {
  const placements = useExtensionPlacements();
  const apiKey = (useRouteLoaderData("routes/app") as { apiKey?: string } | undefined)?.apiKey ?? "";
  const [hidden, setHidden] = useState(false);
  useEffect(() => setHidden(readHidden()), []);
  const steps = overviewSetupSteps(facts, placements, apiKey);
  const required = steps.every((step) => step.done || step.optional);
  if (steps.every((step) => step.done) || (required && hidden)) return null;
  const hide = () => {
    setHidden(true);
    try {
      window.localStorage.setItem(HIDDEN_KEY, "1");
    } catch {
      // Storage refused (private mode): hidden for this visit only.
    }
  };
  return <SetupGuide steps={steps} uncheckable={UNCHECKABLE} onDismiss={required ? hide : undefined} />;
}

function readHidden(): boolean {
  try {
    return window.localStorage.getItem(HIDDEN_KEY) === "1";
  } catch {
    return false;
  }
}
