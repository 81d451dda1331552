export { proxyHopsCheck } from "./proxy-hops";
export { pixelLimiters } from "./rate-limit";
export type { ShareLinksAnswer } from "./share-links-contract";
export { badShareLinksRequest, shareLinksResponse } from "./share-links-response.server";
export { loadShareLinks, shareLinksCacheKey } from "./share-links.server";
export type { ShareLinksDeps, ShareLinksQuery } from "./share-links.server";
export { sessionTokenCustomer, sessionTokenShop } from "./signed-customer";
