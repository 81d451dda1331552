import type { PrismaClient } from "@prisma/client";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import { adminCall, type AdminCallDeps } from "../../platform/shopify-admin/admin-call.server";

// The campaigns with a live friend's offer, kept in an app-data metafield
// (owned by the app's installation) that the tracking embed reads as
// app.metafields.referral_bridge.offer_campaigns: it applies a friend's code
// only for these.

export const OFFER_METAFIELD = { namespace: "referral_bridge", key: "offer_campaigns" } as const;

const INSTALLATION = `#graphql
query ReferralBridgeAppInstallation { currentAppInstallation { id } }`;

const SET = `#graphql
mutation ReferralBridgeOfferCampaigns($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
}`;

/** Comma-separated uids of the shop's offers that are in Shopify and not paused. */
export async function liveOfferCampaigns(db: PrismaClient, shop: string): Promise<string> {
  const offers = await db.friendOffer.findMany({
    where: { shop, paused: false, discountId: { not: null } },
    select: { campaignUid: true },
    orderBy: { campaignUid: "asc" },
  });
  return offers.map((o) => o.campaignUid).join(",");
}

export async function publishOfferCampaigns(deps: AdminCallDeps, db: PrismaClient, shop: string): Promise<void> {
  const value = await liveOfferCampaigns(db, shop);
  const { currentAppInstallation } = await adminCall<{ currentAppInstallation: { id: string } }>(deps, INSTALLATION);
  const data = await adminCall<{ metafieldsSet: { userErrors: { message: string }[] } }>(deps, SET, {
    metafields: [{ ...OFFER_METAFIELD, ownerId: currentAppInstallation.id, type: "single_line_text_field", value: value || "none" }],
  });
  const refused = data.metafieldsSet.userErrors.map((e) => e.message).join("; ");
  if (refused) throw new AdminCallError(`Shopify refused the offer list for the storefront: ${refused}`, false);
}
