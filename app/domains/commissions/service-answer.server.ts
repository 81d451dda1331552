import { isReferralApiError, type ReferralApiError, type ReferralClient } from "../../platform/referral-api";

/** The service's words for a commission that is no longer pending: approved and denied are final through the API. */
const NOT_PENDING = /pending commission only/i;

/** Which commission: the service's uid, else the order (its transaction) in one campaign. */
export interface CommissionAtService {
  orderId: string | null;
  campaignUid: string | null;
  commissionUid?: string | null;
}

export type CommissionChange = { status: "approved" | "denied" } | { revenue: string };

export type ServiceAnswer =
  | { ok: true }
  | { ok: false; refused: "not_pending"; errors: string[] }
  | { ok: false; refused: "not_found"; errors: string[] }
  | { ok: false; refused: "service"; error: ReferralApiError };

/**
 * One commission/update: a decision, or a lower revenue after a refund. The
 * service's refusals come back as answers; anything that is not the
 * service's answer is thrown.
 */
export async function askService(client: ReferralClient, commission: CommissionAtService, change: CommissionChange): Promise<ServiceAnswer> {
  const { commissionUid, orderId, campaignUid } = commission;
  const key = commissionUid
    ? { commissionUid }
    : { transactionUid: orderId ?? "", ...(campaignUid ? { campaignUid } : {}) };
  try {
    await client.updateCommission({ ...key, ...change });
    return { ok: true };
  } catch (error) {
    if (!isReferralApiError(error)) throw error;
    if (error.errors.some((e) => NOT_PENDING.test(e))) return { ok: false, refused: "not_pending", errors: error.errors };
    if (error.kind === "not_found") return { ok: false, refused: "not_found", errors: error.errors };
    return { ok: false, refused: "service", error };
  }
}
