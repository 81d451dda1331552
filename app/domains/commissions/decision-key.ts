import type { CommissionAtService } from "./service-answer.server";
import { commaList } from "../../platform/text/comma-list";

/**
 * What makes one commission decision one Flow trigger, whichever side learnt
 * it first (the order's recording, the merchant, a Flow action, the
 * service's webhook, a cancellation): the order and the campaign, since an
 * order recorded in two campaigns has a commission in each. The trigger's
 * handle (commission-approved or -denied) adds the decision. A commission
 * of no order the app knows is keyed by the service's commission id.
 */
export function commissionDecisionKey(commission: CommissionAtService): string {
  const { orderId, campaignUid, commissionUid } = commission;
  if (orderId && campaignUid) return `order:${orderId}:campaign:${campaignUid}`;
  if (commissionUid) return `commission:${commissionUid}`;
  return `order:${orderId ?? ""}`;
}

/** The record's campaign when it has exactly one: a decision that names none is that campaign's. */
export function onlyCampaign(campaignUids: string | null | undefined): string | null {
  const campaigns = commaList(campaignUids);
  return campaigns.length === 1 ? campaigns[0]! : null;
}
