import { REFERRAL_SERVICE, outcomeOfServiceError } from "../connection";
import type { ShopClient } from "../connection";
import { done } from "../../platform/queue/outcome";
import { defineJob, type QueueContext } from "../../platform/queue/registry";
import { isReferralApiError } from "../../platform/referral-api";
import { realSleep } from "../../platform/http/sleep";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import { CUSTOMER_TAGGING_SCOPES } from "../../platform/shopify-admin/optional-scopes";
import { askShareLinkSync } from "./ask-share-link.server";
import { SHARE_LINK_BACKFILL_JOB, SHARE_LINK_METAFIELD_JOB } from "./job-kinds";
import { noteShareLinkProblem, syncShareLink } from "./sync-share-link.server";

/** What the share link jobs are given. */
export interface CustomerMetafieldJobContext extends QueueContext {
  clientForShop(shop: string): Promise<ShopClient>;
  adminForShop: AdminForShop;
}

/** Shopify's words when the app lacks the scope a field or mutation needs. */
const ACCESS_DENIED = /access denied/i;

export const SHARE_LINK_NEEDS_SCOPE = `The share link can't be written on Shopify customers: the app may no longer change customers (${CUSTOMER_TAGGING_SCOPES.join(", ")}). "Share link on the customer" was turned off; turn it on again on the Service events page to be asked.`;

export const customerMetafieldJobs = [
  defineJob(SHARE_LINK_METAFIELD_JOB, {
    rateLimitGroup: REFERRAL_SERVICE,
    async handle(ctx: CustomerMetafieldJobContext, shop, { email, customerId }) {
      const settings = await ctx.db.shop.findUnique({ where: { shop }, select: { shareLinkMetafield: true, uninstalledAt: true } });
      // Turned off (or uninstalled) since it was asked for: nothing is written.
      if (!settings?.shareLinkMetafield || settings.uninstalledAt) return done;
      const connection = await ctx.clientForShop(shop);
      if (!connection.ok) return { type: "pause", reason: connection.reason };
      const access = await ctx.adminForShop(shop);
      if (!access.ok) return { type: "pause", reason: access.reason, alone: true };
      try {
        const result = await syncShareLink({ db: ctx.db, client: connection.client, admin: { admin: access.admin, sleep: realSleep } }, shop, email, customerId);
        ctx.logger.info({ shop, jobKind: SHARE_LINK_METAFIELD_JOB.name, result: result.kind }, "share link metafields in step");
        return done;
      } catch (error) {
        if (isReferralApiError(error)) return outcomeOfServiceError(error);
        if (!(error instanceof AdminCallError)) throw error;
        if (ACCESS_DENIED.test(error.message)) {
          // The merchant took write_customers back (or never gave it): the feature stays off until asked again.
          await ctx.db.shop.updateMany({ where: { shop }, data: { shareLinkMetafield: false } });
          await noteShareLinkProblem(ctx.db, shop, email, SHARE_LINK_NEEDS_SCOPE);
          return { type: "fail", reason: SHARE_LINK_NEEDS_SCOPE };
        }
        await noteShareLinkProblem(ctx.db, shop, email, error.message);
        // A refusal (userErrors, an invalid document) is the same on every try; a lost answer or throttling is tried again.
        return error.applied === false && /^Shopify refused/.test(error.message)
          ? { type: "fail", reason: error.message }
          : { type: "retry", reason: error.message };
      }
    },
  }),
  defineJob(SHARE_LINK_BACKFILL_JOB, {
    rateLimitGroup: REFERRAL_SERVICE,
    async handle(ctx: CustomerMetafieldJobContext, shop) {
      const connection = await ctx.clientForShop(shop);
      if (!connection.ok) return { type: "pause", reason: connection.reason };
      let asked = 0;
      try {
        // Asked again after a failure, the ambassadors already asked for collapse into their waiting jobs.
        for await (const ambassador of connection.client.iterateAmbassadors({ isActive: true })) {
          if (ambassador.email && (await askShareLinkSync(ctx.db, shop, ambassador.email, { reason: "backfill", now: ctx.now() }))) asked += 1;
        }
      } catch (error) {
        return outcomeOfServiceError(error);
      }
      ctx.logger.info({ shop, jobKind: SHARE_LINK_BACKFILL_JOB.name, asked }, "share link jobs asked for every active ambassador");
      return done;
    },
  }),
];
