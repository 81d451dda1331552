export { FLOW_TRIGGER_JOB } from "./job-kinds";
export { flowTriggerJobs } from "./jobs.server";
export type { FlowTriggerJobContext } from "./jobs.server";
export { enrolmentJobKey, enrolmentKey, rekeyEnrolmentTriggers, flowTriggersOn, flowTriggerStatement, queueFlowTrigger, queueFlowTriggerIfOn } from "./queue-trigger.server";
export { ambassadorEnrolled, commissionDecided, payoutStoreCredit, referralBlocked, referralCodeLeaked, referralCredited } from "./triggers";
export type { DecidedBy } from "./triggers";
