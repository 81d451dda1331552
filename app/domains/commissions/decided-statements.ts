import type { Statement } from "../../platform/db/sql.server";
import { commissionDecided, flowTriggerStatement, type DecidedBy } from "../flow-triggers";
import { commissionStateMove, type CommissionState } from "./commission-state";
import { commissionDecisionKey } from "./decision-key";

/**
 * decide, as statements for the order job to store with its settle: the
 * recording was the service's answer. The move is conditional (a service
 * event may have moved the commission already); each campaign's approval or
 * denial is its own trigger, keyed as decide keys it.
 */
export function decidedStatements(
  decision: { shop: string; orderId: string; state: CommissionState; by: DecidedBy; campaigns: { campaignUid: string; referrerEmail?: string | null }[] },
  flowOn: boolean,
  now: Date,
): Statement[] {
  const { shop, orderId, state, by } = decision;
  const move = commissionStateMove({ shop, orderId }, state, now);
  if (!flowOn || state === "pending") return [move];
  return [
    move,
    ...decision.campaigns.map(({ campaignUid, referrerEmail }) =>
      flowTriggerStatement(shop, commissionDecided({ state, orderId, referrerEmail, campaign: campaignUid, by }), commissionDecisionKey({ orderId, campaignUid }), now),
    ),
  ];
}
