export { flowActionJobs } from "./jobs.server";
export type { FlowActionJobContext } from "./jobs.server";
