import { type AmbassadorResult, normaliseAmbassadorResult } from "../normalise/ambassador-result";
import { encodeParams } from "../params";
import type { AmbassadorStatus } from "../types";
import type { OperationDeps } from "./deps";
import {
  type AddressFields,
  type CreationFlags,
  type CustomFields,
  type Id,
  RENAMED_PARAMS,
  type SandboxFlag,
} from "./param-groups";

export interface GetAmbassadorParams extends CustomFields, CreationFlags, SandboxFlag, AddressFields {
  email: string;
  uid?: string;
  firstName?: string;
  lastName?: string;
  /** Replaces the groups of an existing ambassador. */
  setGroups?: string | readonly Id[];
  /** Sent as `paypal_email`; read back as `payoutEmail`. */
  payoutEmail?: string;
  company?: string;
  /** Status of a newly created ambassador. */
  status?: AmbassadorStatus;
}

/** GET ambassador/get: one ambassador with share links; with autoCreate, creates it when missing. */
export function getAmbassadorOperation({ transport }: OperationDeps) {
  return function getAmbassador(params: GetAmbassadorParams): Promise<AmbassadorResult> {
    return transport.request({
      operation: "ambassador/get",
      method: "GET",
      params: encodeParams(params, RENAMED_PARAMS),
      normalise: normaliseAmbassadorResult,
    });
  };
}
