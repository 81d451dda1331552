import { z } from "zod";
import { defineJobKind } from "../../platform/queue/job-kind";

/** Builds the report of a customers/data_request. */
export const PRIVACY_EXPORT_JOB = defineJobKind({ name: "privacy.export", payload: z.object({ dataRequestId: z.string() }) });
/** Erases a redacted customer at the referral service (compliance/remove). */
export const PRIVACY_REDACT_JOB = defineJobKind({ name: "privacy.redact", payload: z.object({ redactionId: z.string() }) });

/** Carries out a customers/redact in the app: the customer, sealed, is erased from every row (redact-customer.server.ts). */
export const PRIVACY_CUSTOMER_REDACT_JOB = defineJobKind({ name: "privacy.customer-redact", payload: z.object({ who: z.string() }) });

/** The retention purge (purge.server.ts): one job an hour for the whole app, not for one shop. */
export const PRIVACY_PURGE_JOB = defineJobKind({ name: "privacy.purge", payload: z.object({}) });
/** The shop column of the purge's jobs: no shop's name, so no shop's pause, uninstall or redact touches them. */
export const PURGE_JOB_SHOP = "(app)";

/** Legal obligations: these keep running after an uninstall, until shop/redact. */
export const PRIVACY_JOB_KINDS = [PRIVACY_EXPORT_JOB.name, PRIVACY_REDACT_JOB.name, PRIVACY_CUSTOMER_REDACT_JOB.name];
