import type { Money } from "../money";

/** An amount as the caller has it; sent as its decimal text. */
export type Amount = Money | string | number;

/** An ID the service documents as int32 or string. */
export type Id = string | number;

export interface CustomFields {
  custom1?: string;
  custom2?: string;
  custom3?: string;
  /** A date; a Date is sent as YYYY-MM-DD. */
  custom4?: string | Date;
  custom5?: string;
  custom6?: string;
  custom7?: string;
  custom8?: string;
  custom9?: string;
  custom10?: string;
}

export type FirstCustomFields = Pick<CustomFields, "custom1" | "custom2" | "custom3">;

/** What happens when the operation has to create the ambassador. */
export interface CreationFlags {
  /** Send login credentials to new ambassadors. */
  emailNewAmbassador?: boolean;
  /** Create new ambassadors deactivated. */
  deactivateNewAmbassador?: boolean;
  /** Create the ambassador when missing. */
  autoCreate?: boolean;
  /** Group IDs for new ambassadors (overrides default groups); "-1" adds to no group. */
  addToGroupId?: string | readonly Id[];
}

export interface SandboxFlag {
  /** New ambassadors are test ambassadors. */
  sandbox?: boolean;
}

export interface AddressFields {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  phone?: string;
}

export interface EventDataFields {
  eventData1?: string;
  eventData2?: string;
  eventData3?: string;
}

/** Exactly one way to name an ambassador is required; uid wins when both are sent. */
export type AmbassadorKey = { uid: string; email?: string } | { email: string; uid?: string };

/** Parameter names that snake_case does not produce. */
export const RENAMED_PARAMS = {
  payoutEmail: "paypal_email",
  createdBefore: "created_at__lte",
  createdAfter: "created_at__gte",
} as const;
