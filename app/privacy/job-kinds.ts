/** Builds the report of a customers/data_request. */
export const PRIVACY_EXPORT_JOB = "privacy.export";
/** Erases a redacted customer at the referral service (compliance/remove). */
export const PRIVACY_REDACT_JOB = "privacy.redact";

/** Legal obligations: these keep running after an uninstall, until shop/redact. */
export const PRIVACY_JOB_KINDS = [PRIVACY_EXPORT_JOB, PRIVACY_REDACT_JOB];
