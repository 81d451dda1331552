import type { OrderRecord, Prisma, PrismaClient } from "@prisma/client";
import { isReferralApiError, type ReferralClient } from "../../platform/referral-api";
import { updateOrderRecord, type CampaignResult, type CampaignResults } from "./order-records.server";
import { outcomeOfServiceError } from "../connection";
import type { JobOutcome } from "../../platform/queue/outcome";
import { askService, decide, type CommissionChange, type CommissionState } from "../commissions";

/**
 * Applies one change (deny, or a lower revenue) to the order's commission in
 * every campaign it was recorded in. A commission that is no longer pending
 * cannot change through the API: that campaign is marked for the merchant to
 * review. Nothing is stored of a denial yet: the caller records the
 * campaigns' denials together (storeReversal), or none when one needs review.
 * Returns an outcome when the service could not be reached.
 */
export async function reviseCommissions(
  client: ReferralClient,
  orderId: string,
  results: CampaignResults,
  change: CommissionChange,
  reversal: NonNullable<CampaignResult["reversal"]>,
): Promise<JobOutcome | null> {
  for (const [campaignUid, result] of Object.entries(results)) {
    if (result.state !== "recorded" || result.reversal === "denied" || result.reversal === "needs_review") continue;
    try {
      const answer = await askService(client, { orderId, campaignUid }, change);
      if (answer.ok) {
        result.reversal = reversal;
      } else if (answer.refused === "not_pending") {
        result.reversal = "needs_review";
        result.detail = answer.errors.join(" ");
      } else if (answer.refused === "not_found") {
        result.reversal = "nothing_to_reverse";
      } else {
        return outcomeOfServiceError(answer.error);
      }
    } catch (error) {
      return outcomeOfServiceError(error);
    }
  }
  return null;
}

/**
 * Gives commissions held pending until the guard had checked the referrer
 * the approval the shop wants: its own setting, else each campaign's. A
 * commission no longer pending was settled by someone else and is left as
 * it is. Returns the state the commissions released now share (undefined
 * when they differ) and the campaigns approved now, or an outcome when the
 * service could not be reached.
 */
export async function releaseHeld(
  client: ReferralClient,
  orderId: string,
  results: CampaignResults,
  approves: (campaignUid: string) => Promise<boolean>,
): Promise<{ interrupted: JobOutcome } | { state: CommissionState | undefined; approved: string[] }> {
  const states = new Set<CommissionState>();
  const approved: string[] = [];
  for (const [campaignUid, result] of Object.entries(results)) {
    if (result.state !== "recorded" || !result.held) continue;
    try {
      if (await approves(campaignUid)) {
        const answer = await askService(client, { orderId, campaignUid }, { status: "approved" });
        // Not pending, or unknown: settled elsewhere.
        if (answer.ok) {
          states.add("approved");
          approved.push(campaignUid);
        } else if (answer.refused === "service") return { interrupted: outcomeOfServiceError(answer.error) };
      } else states.add("pending");
    } catch (error) {
      if (!isReferralApiError(error) || error.kind !== "not_found") return { interrupted: outcomeOfServiceError(error) };
    }
    delete result.held;
  }
  return { state: states.size === 1 ? [...states][0] : undefined, approved };
}

export function needsReview(results: CampaignResults): string[] {
  return Object.entries(results)
    .filter(([, r]) => r.reversal === "needs_review")
    .map(([uid]) => uid);
}

/**
 * Stores what a cancellation or refund did on the order's record. When it
 * denied the commissions, each campaign's denial is recorded through decide
 * in the same transaction, with the state the job read before it asked the
 * service: an approval a service event stored while the job called the
 * service is newer than the denial, and stays.
 */
export async function storeReversal(
  db: PrismaClient,
  record: Pick<OrderRecord, "shop" | "orderId" | "commissionState">,
  data: Prisma.OrderRecordUpdateInput,
  denials: { results: CampaignResults; reason: string } | null,
): Promise<void> {
  const { shop, orderId } = record;
  if (!denials) {
    await updateOrderRecord(db, shop, orderId, data);
    return;
  }
  await db.$transaction(async (tx) => {
    await updateOrderRecord(tx, shop, orderId, data);
    for (const [campaignUid, result] of Object.entries(denials.results)) {
      if (result.reversal !== "denied") continue;
      await decide(
        { db: tx },
        {
          shop,
          service: "reported",
          state: "denied",
          by: "app",
          reason: denials.reason,
          readAs: record.commissionState,
          commission: { orderId, campaignUid, referrerEmail: result.referrer },
        },
      );
    }
  });
}
