import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { supportContact } from "../../../app/entry/admin/support-contact";
import { PageLoadError } from "../../../app/entry/admin/components/RouteErrorBoundary";
import { parseEnv } from "../../../app/wiring/env.server";

describe("the app's support contact", () => {
  it("comes from SUPPORT_CONTACT, an email address or an https page", () => {
    const env = parseEnv({ NODE_ENV: "development", SUPPORT_CONTACT: "help@referral-bridge.example" });
    expect(supportContact(env.SUPPORT_CONTACT, env.SHOPIFY_APP_URL)).toEqual({ label: "help@referral-bridge.example", href: "mailto:help@referral-bridge.example" });
    expect(supportContact("https://help.referral-bridge.example/contact", "https://app.example")).toEqual({
      label: "help.referral-bridge.example",
      href: "https://help.referral-bridge.example/contact",
    });
    expect(() => parseEnv({ NODE_ENV: "development", SUPPORT_CONTACT: "call us" })).toThrow(/SUPPORT_CONTACT.*email address or an https/);
    expect(() => parseEnv({ NODE_ENV: "development", SUPPORT_CONTACT: "http://help.example" })).toThrow(/SUPPORT_CONTACT/);
  });

  it("is support@ the app's own host when none is configured", () => {
    const env = parseEnv({ NODE_ENV: "development", SHOPIFY_APP_URL: "https://referrals.merchant-tools.example" });
    expect(supportContact(env.SUPPORT_CONTACT, env.SHOPIFY_APP_URL)).toEqual({
      label: "support@referrals.merchant-tools.example",
      href: "mailto:support@referrals.merchant-tools.example",
    });
  });

  it("is named, with its link, on a page that could not be loaded", () => {
    const html = renderToString(
      createElement(AppProvider, { i18n: en }, createElement(PageLoadError, { title: "Overview", contact: supportContact("help@referral-bridge.example", "https://a.example") })),
    );
    expect(html).toContain("This page couldn&#x27;t be loaded");
    expect(html).toMatch(/contact the app&#x27;s support(<!-- -->)? at (<!-- -->)?<a[^>]*href="mailto:help@referral-bridge.example"[^>]*>help@referral-bridge.example<\/a>/);
  });
});
