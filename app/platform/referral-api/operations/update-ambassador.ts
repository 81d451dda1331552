import { type MessageResult, normaliseMessage } from "../normalise/message";
import { encodeParams } from "../params";
import type { OperationDeps } from "./deps";
import { type AddressFields, type AmbassadorKey, type CustomFields, type Id, RENAMED_PARAMS } from "./param-groups";

export type UpdateAmbassadorParams = AmbassadorKey &
  CustomFields &
  AddressFields & {
    newEmail?: string;
    newUid?: string;
    firstName?: string;
    lastName?: string;
    /** true deactivates (status becomes banned), false activates. */
    isDeactivated?: boolean;
    sendWelcomeEmail?: boolean;
    /** Sent as `paypal_email`. */
    payoutEmail?: string;
    company?: string;
    /** Replaces the current groups. */
    setGroups?: string | readonly Id[];
  };

/** POST ambassador/update: changes an existing ambassador named by uid or email (uid wins). */
export function updateAmbassadorOperation({ transport }: OperationDeps) {
  return function updateAmbassador(params: UpdateAmbassadorParams): Promise<MessageResult> {
    return transport.request({
      operation: "ambassador/update",
      method: "POST",
      params: encodeParams(params, RENAMED_PARAMS),
      normalise: normaliseMessage,
    });
  };
}
