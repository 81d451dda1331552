import { REFERRAL_SERVICE, outcomeOfServiceError } from "../connection";
import type { ShopClient } from "../connection";
import { done } from "../../platform/queue/outcome";
import { defineJob, type QueueContext } from "../../platform/queue/registry";
import { isReferralApiError } from "../../platform/referral-api";
import { realSleep } from "../../platform/http/sleep";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import { scheduleOfferSync } from "./enqueue-offer.server";
import { OFFER_SYNC_JOB } from "./job-kinds";
import { publishOfferCampaigns } from "./offer-metafield.server";
import { syncOffer } from "./sync-offer.server";

/** What the offer jobs are given. */
export interface OfferJobContext extends QueueContext {
  clientForShop(shop: string): Promise<ShopClient>;
  adminForShop: AdminForShop;
}

/** What the Friend's offer card says when a sync attempt failed. */
function merchantWords(error: unknown): string {
  if (error instanceof AdminCallError) {
    return error.applied === "unknown"
      ? "Shopify didn't answer; the app tries again shortly."
      : `Shopify refused a change to the offer; the app tries again shortly. (${error.message})`;
  }
  if (isReferralApiError(error)) return "The referral service didn't answer; the app tries again shortly.";
  return error instanceof Error ? error.message : String(error);
}

export const offerJobs = [
  defineJob(OFFER_SYNC_JOB, {
  rateLimitGroup: REFERRAL_SERVICE,
  async handle(ctx: OfferJobContext, shop, { campaignUid, email }) {
    const offer = await ctx.db.friendOffer.findUnique({ where: { shop_campaignUid: { shop, campaignUid } }, select: { id: true } });
    if (!offer) return done;
    const connection = await ctx.clientForShop(shop);
    if (!connection.ok) return { type: "pause", reason: connection.reason };
    const access = await ctx.adminForShop(shop);
    // Shopify's answer about this shop's token holds the offer's sync, not the orders, which never call Shopify.
    if (!access.ok) return { type: "pause", reason: access.reason, alone: true };
    try {
      const deps = { db: ctx.db, client: connection.client, admin: { admin: access.admin, sleep: realSleep }, now: ctx.now };
      await syncOffer(deps, shop, campaignUid, email ? { email } : {});
      await publishOfferCampaigns(deps.admin, ctx.db, shop);
    } catch (error) {
      await ctx.db.friendOffer.updateMany({ where: { shop, campaignUid }, data: { lastError: merchantWords(error) } });
      if (isReferralApiError(error)) return outcomeOfServiceError(error);
      return { type: "retry", reason: error instanceof Error ? error.message : String(error) };
    }
    if (!email) await scheduleOfferSync(ctx.db, shop, campaignUid, ctx.now());
    return done;
  },
}),
];
