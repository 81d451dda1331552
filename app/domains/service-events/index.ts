export { stopReceivedEvents } from "./events.server";
export { SERVICE_EVENT_JOB } from "./job-kinds";
export { serviceEventJobs } from "./jobs.server";
export type { ServiceEventJobContext } from "./jobs.server";
export { retireInboundSecrets } from "./endpoint.server";
