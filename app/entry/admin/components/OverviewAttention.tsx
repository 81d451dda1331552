import type { SyncHealth } from "../dashboard.server";
import type { MerchantError } from "../merchant-error";
import { AttentionBanner, serviceErrorItem, type AttentionItem } from "./AttentionBanner";
import { useEmbeddedHref } from "./embedded-url";
import { formatDateTime, plural } from "./format";

export interface OverviewAttentionFacts {
  connection: { status: string; error?: string | null };
  health: Pick<SyncHealth, "held" | "refused"> & { counts: { failed: number } };
  trackedCampaigns: number;
  /** The referral service's answer to the page's figures, when it failed. */
  statsError: MerchantError | null;
}

/** What on the Overview needs the merchant, most urgent first. */
export function overviewAttention({ connection, health, trackedCampaigns, statsError }: OverviewAttentionFacts): AttentionItem[] {
  const items: AttentionItem[] = [];
  if (connection.status === "broken") {
    items.push({
      id: "credentials",
      tone: "critical",
      title: "Orders are on hold: the referral service refused your credentials",
      message: connection.error ?? "Enter the current username and token; held orders are sent as soon as they work.",
      action: { content: "Update credentials", url: "/app/settings" },
    });
  }
  if (health.counts.failed > 0) {
    items.push({
      id: "failed",
      tone: "critical",
      title: `${plural(health.counts.failed, "order")} couldn't be recorded`,
      message: "Each one shows the service's reason. Retry them once the cause is fixed, or skip them.",
      action: { content: "Review failed orders", url: "/app/activity?status=failed" },
    });
  }
  const { refused } = health;
  if (refused.count > 0 && refused.latest) {
    const { topic, reason, at } = refused.latest;
    items.push({
      id: "refused",
      tone: "critical",
      title: `${plural(refused.count, "order update")} from Shopify couldn't be read in the last ${refused.days} days`,
      message: `Those orders were not recorded. The latest (${topic}, ${formatDateTime(at)}): ${reason}. Contact the app's support with this message.`,
    });
  }
  if (statsError) items.push(serviceErrorItem(statsError));
  if (connection.status === "connected" && trackedCampaigns === 0) {
    items.push({
      id: "campaigns",
      tone: "warning",
      title: "Choose the campaigns to record orders in",
      message: "Until you choose one, referred orders are held and no commission is created.",
      action: { content: "Choose campaigns", url: "/app/settings" },
    });
  }
  if (health.held.count > 0 && connection.status === "connected" && trackedCampaigns > 0) {
    items.push({
      id: "held",
      tone: "warning",
      title: `${plural(health.held.count, "order")} on hold`,
      message: health.held.reason ?? "They are sent as soon as what holds them is fixed.",
      action: { content: "View activity", url: "/app/activity" },
    });
  }
  return items;
}

/** The Overview's one attention banner. */
export function OverviewAttention({ facts }: { facts: OverviewAttentionFacts }) {
  const href = useEmbeddedHref();
  return <AttentionBanner items={overviewAttention(facts)} href={(url) => href(url)} />;
}
