export { markConnectionBroken } from "./connection-state.server";
export { CREDENTIALS_REFUSED, REFERRAL_SERVICE, outcomeOfServiceError } from "./service-outcome";
export { connectionIdentity, shopClient } from "./shop-client.server";
export type { ShopClient } from "./shop-client.server";
