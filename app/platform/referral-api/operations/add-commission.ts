import { readFields } from "../field-reader";
import { encodeParams } from "../params";
import type { Extra } from "../types";
import type { OperationDeps } from "./deps";
import type { AmbassadorKey, Amount, CreationFlags, EventDataFields, Id } from "./param-groups";

export type AddCommissionParams = AmbassadorKey &
  Omit<CreationFlags, "addToGroupId"> &
  EventDataFields & {
    campaignUid: Id;
    amount: Amount;
    customerEmail?: string;
    firstName?: string;
    lastName?: string;
    revenue?: Amount;
    transactionUid?: string;
    referrerUid?: string;
    customerUid?: string;
    /** true approved, false pending. */
    isApproved?: boolean;
  };

export interface AddCommissionResult {
  message: string | null;
  /** Sent as an integer; kept as text like every other commission_uid. */
  commissionUid: string | null;
  extra: Extra;
}

/** POST commission/add: a commission for an ambassador without a referred party. */
export function addCommissionOperation({ transport }: OperationDeps) {
  return function addCommission(params: AddCommissionParams): Promise<AddCommissionResult> {
    return transport.request({
      operation: "commission/add",
      method: "POST",
      params: encodeParams(params),
      normalise(data) {
        const r = readFields(data, "response data");
        return { message: r.text("message"), commissionUid: r.text("commission_uid"), extra: r.extra() };
      },
    });
  };
}
