export { PRIVACY_JOB_KINDS } from "./job-kinds";
export { privacyJobs } from "./jobs.server";
export type { PrivacyJobContext } from "./jobs.server";
export { schedulePurge } from "./purge.server";
