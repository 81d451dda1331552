import type { ShopifyGlobal } from "@shopify/app-bridge-types";
import { missingScopes } from "../../../platform/shopify-admin/optional-scopes";

export type ScopeAnswer = "granted" | "declined" | "no-app-bridge";

type ScopesApi = ShopifyGlobal["scopes"];
type Scope = Parameters<ScopesApi["request"]>[0][number];

const appBridgeScopes = (): ScopesApi | undefined => (globalThis as { shopify?: Partial<ShopifyGlobal> }).shopify?.scopes;

/**
 * Asks the merchant for optional scopes with App Bridge's Scopes API (the
 * admin's permission dialog), only those not granted yet. Outside the admin
 * (no App Bridge) nothing can be asked: the server's own check decides.
 */
export async function requestScopes(scopes: readonly string[]): Promise<ScopeAnswer> {
  const api = appBridgeScopes();
  if (!api) return "no-app-bridge";
  const { granted } = await api.query();
  const missing = missingScopes(scopes, granted as string[]);
  if (missing.length === 0) return "granted";
  const answer = await api.request(missing as Scope[]);
  return answer.result === "granted-all" ? "granted" : "declined";
}
