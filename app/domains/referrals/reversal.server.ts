import { queueCommissionDecided } from "../flow-triggers";
import type { OrderRecord, Prisma, PrismaClient } from "@prisma/client";
import { isReferralApiError, type ReferralClient, type UpdateCommissionParams } from "../../platform/referral-api";
import { parseJsonObject, updateOrderRecord, type CampaignResult, type CampaignResults } from "./order-records.server";
import { outcomeOfServiceError } from "../connection";
import type { JobOutcome } from "../../platform/queue/outcome";
import { moveCommissionState, type CommissionState } from "../commissions";

const NOT_PENDING = /pending commission only/i;

export type ReversalChange = Pick<UpdateCommissionParams, "status" | "revenue">;

/**
 * Applies one change (deny, or a lower revenue) to the order's commission in
 * every campaign it was recorded in. A commission that is no longer pending
 * cannot change through the API: that campaign is marked for the merchant to
 * review. Returns an outcome when the service could not be reached.
 */
export async function reviseCommissions(
  client: ReferralClient,
  orderId: string,
  results: CampaignResults,
  change: ReversalChange,
  reversal: NonNullable<CampaignResult["reversal"]>,
): Promise<JobOutcome | null> {
  for (const [campaignUid, result] of Object.entries(results)) {
    if (result.state !== "recorded" || result.reversal === "denied" || result.reversal === "needs_review") continue;
    try {
      await client.updateCommission({ transactionUid: orderId, campaignUid, ...change });
      result.reversal = reversal;
    } catch (error) {
      if (isReferralApiError(error) && error.errors.some((e) => NOT_PENDING.test(e))) {
        result.reversal = "needs_review";
        result.detail = error.errors.join(" ");
      } else if (isReferralApiError(error) && error.kind === "not_found") {
        result.reversal = "nothing_to_reverse";
      } else {
        return outcomeOfServiceError(error);
      }
    }
  }
  return null;
}

/**
 * Gives commissions held pending until the guard had checked the referrer
 * the approval the shop wants: its own setting, else each campaign's. A
 * commission no longer pending was settled by someone else and is left as
 * it is. Returns the state the commissions released now share (undefined
 * when they differ), or an outcome when the service could not be reached.
 */
export async function releaseHeld(
  client: ReferralClient,
  orderId: string,
  results: CampaignResults,
  approves: (campaignUid: string) => Promise<boolean>,
): Promise<{ interrupted: JobOutcome } | { state: CommissionState | undefined }> {
  const states = new Set<CommissionState>();
  for (const [campaignUid, result] of Object.entries(results)) {
    if (result.state !== "recorded" || !result.held) continue;
    try {
      if (await approves(campaignUid)) {
        await client.updateCommission({ transactionUid: orderId, campaignUid, status: "approved" });
        states.add("approved");
      } else states.add("pending");
    } catch (error) {
      const settledElsewhere = isReferralApiError(error) && (error.kind === "not_found" || error.errors.some((e) => NOT_PENDING.test(e)));
      if (!settledElsewhere) return { interrupted: outcomeOfServiceError(error) };
    }
    delete result.held;
  }
  return { state: states.size === 1 ? [...states][0] : undefined };
}

export function needsReview(results: CampaignResults): string[] {
  return Object.entries(results)
    .filter(([, r]) => r.reversal === "needs_review")
    .map(([uid]) => uid);
}

/**
 * Stores what a cancellation or refund did on the order's record. When it
 * denied the commission, the commission's state moves to denied in the same
 * transaction, through its conditional update (commission-state.ts): an
 * approval a service event stored while the job called the service is
 * newer than the denial, and stays.
 */
export async function storeReversal(
  db: PrismaClient,
  record: Pick<OrderRecord, "shop" | "orderId" | "commissionState"> & Partial<Pick<OrderRecord, "results">>,
  data: Prisma.OrderRecordUpdateInput,
  commission: "denied" | "unchanged",
): Promise<void> {
  const { shop, orderId } = record;
  if (commission === "unchanged") {
    await updateOrderRecord(db, shop, orderId, data);
    return;
  }
  await db.$transaction(async (tx) => {
    await updateOrderRecord(tx, shop, orderId, data);
    if (await moveCommissionState(tx, { shop, orderId }, "denied", { readAs: record.commissionState })) {
      const reason = typeof data.statusReason === "string" ? data.statusReason : "The order was cancelled or refunded";
      // The campaign and referrer the order was recorded with, when its record knows them.
      const [campaign, result] = Object.entries(parseJsonObject<CampaignResults>(record.results)).find(([, r]) => r.state === "recorded") ?? [];
      await queueCommissionDecided(tx, shop, { state: "denied", orderId, by: "app", reason, campaign, referrerEmail: result?.referrer });
    }
  });
}
