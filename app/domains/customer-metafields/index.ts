export { askShareLinkSync, queueShareLinkSync } from "./ask-share-link.server";
export { customerMetafieldJobs } from "./jobs.server";
export type { CustomerMetafieldJobContext } from "./jobs.server";
export { linksWorthSharing, shareLinkValues } from "./share-link-fields";
