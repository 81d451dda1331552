import { AppProvider } from "@shopify/polaris";
import en from "@shopify/polaris/locales/en.json";
import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OrderExplanation } from "../../../app/entry/admin/components/OrderExplanation";
import type { Explanation } from "../../../app/domains/referrals/explanation";
import { AmbassadorStatusBadge, CommissionStatusBadge, ConnectionBadge, FraudBadge, OrderStatusBadge } from "../../../app/entry/admin/components/StatusBadges";

// Red is for what went wrong and needs the merchant; the program's own
// decisions (denied, blocked, deactivated, flagged) are not errors.

const html = (element: ReactElement) => renderToString(createElement(AppProvider, { i18n: en }, element));
const toneOf = (element: ReactElement) => /Polaris-Badge--tone(\w+)/.exec(html(element))?.[1] ?? "neutral";

describe("status badges", () => {
  it("say an order waits for a pixel signal, as work under way", () => {
    const markup = html(createElement(OrderStatusBadge, { status: "awaiting_signal" }));
    expect(markup).toContain("Waiting for a pixel signal");
    expect(toneOf(createElement(OrderStatusBadge, { status: "awaiting_signal" }))).toBe("Info");
  });

  it("keep the critical tone for errors only", () => {
    expect(toneOf(createElement(OrderStatusBadge, { status: "failed" }))).toBe("Critical");
    expect(toneOf(createElement(ConnectionBadge, { status: "broken" }))).toBe("Critical");
  });

  it("show the program's decisions in neutral or attention tones", () => {
    const decisions: [string, ReactElement][] = [
      ["denied commission", createElement(CommissionStatusBadge, { status: "denied" })],
      ["deactivated ambassador", createElement(AmbassadorStatusBadge, { status: "banned" })],
      ["flagged commission", createElement(FraudBadge, { status: "flagged" })],
      ["fraudulent commission", createElement(FraudBadge, { status: "fraudulent" })],
      ["blocked order", createElement(OrderStatusBadge, { status: "blocked" })],
      ["not referred order", createElement(OrderStatusBadge, { status: "not_referred" })],
      ["reversed order", createElement(OrderStatusBadge, { status: "reversed" })],
    ];
    const tones = Object.fromEntries(decisions.map(([name, element]) => [name, toneOf(element)]));
    expect(tones).toEqual({
      "denied commission": "neutral",
      "deactivated ambassador": "neutral",
      "flagged commission": "Attention",
      "fraudulent commission": "Warning",
      "blocked order": "Attention",
      "not referred order": "neutral",
      "reversed order": "neutral",
    });
  });

  it("show a guard rule that blocked an order without the critical tone", () => {
    const explanation: Explanation = {
      decision: "Blocked: the buyer is the referrer.",
      signals: [],
      winner: null,
      guard: [{ rule: "self_email", label: "Same email as the referrer", verdict: "blocked" }],
    };
    const markup = html(createElement(OrderExplanation, { explanation, orderName: "#1001" }));
    expect(markup).toContain("Blocked");
    expect(markup).not.toContain("Polaris-Badge--toneCritical");
  });
});
