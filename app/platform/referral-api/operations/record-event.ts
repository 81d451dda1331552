import { type AmbassadorResult, normaliseAmbassadorResult } from "../normalise/ambassador-result";
import { encodeParams } from "../params";
import type { OperationDeps } from "./deps";
import type { AddressFields, Amount, CreationFlags, CustomFields, EventDataFields, Id } from "./param-groups";

export interface RecordEventParams extends CustomFields, CreationFlags, AddressFields, EventDataFields {
  /** The referred customer's email. */
  email: string;
  /** Required unless productId is given. */
  campaignUid?: Id;
  /** A product assigned to a campaign; required unless campaignUid is given. */
  productId?: Id;
  /** The referrer's short code (needed for initial commissions when couponCode is absent). */
  shortCode?: string;
  /** Needed for initial commissions when shortCode is absent. */
  couponCode?: string;
  revenue?: Amount;
  /** Unique per event; the order ID, so a retry cannot count twice. */
  transactionUid?: string;
  ipAddress?: string;
  /** The customer's internal ID. */
  uid?: string;
  firstName?: string;
  lastName?: string;
  /** Overrides the campaign's auto-approve setting; absent lets the campaign decide. */
  isApproved?: boolean;
}

/** POST event/record: records a referral event for one campaign. */
export function recordEventOperation({ transport }: OperationDeps) {
  return function recordEvent(params: RecordEventParams): Promise<AmbassadorResult> {
    return transport.request({
      operation: "event/record",
      method: "POST",
      params: encodeParams(params),
      normalise: normaliseAmbassadorResult,
    });
  };
}
