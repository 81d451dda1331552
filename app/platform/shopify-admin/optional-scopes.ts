// The access scopes the app asks for only when the merchant turns on what
// needs them (optional_scopes in shopify.app.toml), by feature. No zod here:
// the pages import this to ask for them with App Bridge's Scopes API.

/** Store credit payouts: read the ambassador's store credit account, credit it. */
export const STORE_CREDIT_SCOPES = ["read_store_credit_accounts", "write_store_credit_account_transactions"] as const;
/** Tagging new ambassadors: change the Shopify customer's tags. */
export const CUSTOMER_TAGGING_SCOPES = ["write_customers"] as const;
/** Backfills past 60 days: Shopify shows an app older orders only with this (protected, approved by Shopify first). */
export const ALL_ORDERS_SCOPE = "read_all_orders";

/** Each option of the Service events page that needs optional scopes, with them. */
export const FEATURE_SCOPES = {
  storeCreditPayouts: STORE_CREDIT_SCOPES,
  tagContacts: CUSTOMER_TAGGING_SCOPES,
  /** Writing the share link metafields on customers (metafieldsSet on a Customer needs write_customers, app-owned or not). */
  shareLinkMetafield: CUSTOMER_TAGGING_SCOPES,
} as const;

export type ScopedFeature = keyof typeof FEATURE_SCOPES;

export const FEATURE_NAMES: Record<ScopedFeature, string> = {
  storeCreditPayouts: "Store credit payouts",
  tagContacts: "Tagging new ambassadors",
  shareLinkMetafield: "The share link on the customer",
};

/** Shopify writes a write scope's read half implicitly: write_customers grants read_customers. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  const has = new Set(granted.map((s) => s.trim()));
  return needed.filter((scope) => !has.has(scope) && !(scope.startsWith("read_") && has.has(`write_${scope.slice(5)}`)));
}

/** Why a feature stays off until the merchant allows it. */
export function permissionNeeded(feature: ScopedFeature, missing: readonly string[]): string {
  return `${FEATURE_NAMES[feature]} stays off until you allow the app to use ${missing.join(" and ")} in Shopify. Turn it on again to be asked.`;
}
