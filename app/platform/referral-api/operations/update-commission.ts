import { type MessageResult, normaliseMessage } from "../normalise/message";
import { encodeParams } from "../params";
import type { OperationDeps } from "./deps";
import type { Amount, EventDataFields, Id } from "./param-groups";

const STATUS_CODE = { approved: "1", denied: "2" } as const;

/** commission_uid wins when both keys are given; campaignUid narrows a transaction_uid lookup. */
export type CommissionKey =
  | { commissionUid: Id; transactionUid?: string; campaignUid?: Id }
  | { transactionUid: string; campaignUid?: Id; commissionUid?: Id };

export type UpdateCommissionParams = CommissionKey &
  EventDataFields & {
    /** Only a pending commission can change state. */
    status?: "approved" | "denied";
    revenue?: Amount;
  };

/**
 * GET commission/update (the documented method): approves or denies a pending
 * commission. Approved and denied commissions cannot change again.
 */
export function updateCommissionOperation({ transport }: OperationDeps) {
  return function updateCommission(params: UpdateCommissionParams): Promise<MessageResult> {
    const { status, ...rest } = params;
    return transport.request({
      operation: "commission/update",
      method: "GET",
      params: encodeParams({ ...rest, isApproved: status === undefined ? undefined : STATUS_CODE[status] }),
      normalise: normaliseMessage,
    });
  };
}
