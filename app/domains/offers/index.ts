export { enqueueAmbassadorCode, enqueueMissingAmbassadorCode, enqueueShopOfferSyncs, scheduleShopOfferSyncs } from "./enqueue-offer.server";
export { OFFER_SYNC_JOB } from "./job-kinds";
export { offerJobs } from "./jobs.server";
export type { OfferJobContext } from "./jobs.server";
export { findOfferCode } from "./offer-code-owner.server";
export { liveOfferCampaigns } from "./offer-metafield.server";
export { shareCodeOfLink } from "./share-code";
