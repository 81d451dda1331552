import type { PrismaClient } from "@prisma/client";
import { FEATURE_SCOPES, missingScopes, permissionNeeded, type ScopedFeature } from "../../platform/shopify-admin/optional-scopes";
import type { GrantedScopes } from "../../platform/shopify-admin/access-scopes.server";
import type { ServiceEventOptions } from "./events.server";

// Store credit payouts and customer tagging use optional scopes: they can be
// on only while the merchant has granted them.

const FEATURES = Object.keys(FEATURE_SCOPES) as ScopedFeature[];

/**
 * Whether the options may be saved: a feature being turned on needs its
 * scopes granted now (asked of Shopify, only then). The merchant's words for
 * what is missing, or null.
 */
export async function featureScopeProblem(
  current: ServiceEventOptions,
  next: ServiceEventOptions,
  granted: () => Promise<GrantedScopes>,
): Promise<string | null> {
  const turningOn = FEATURES.filter((feature) => next[feature] && !current[feature]);
  if (turningOn.length === 0) return null;
  const answer = await granted();
  if (!answer.ok) return `Nothing was saved: ${answer.reason} Try again in a moment.`;
  for (const feature of turningOn) {
    const missing = missingScopes(FEATURE_SCOPES[feature], answer.scopes);
    if (missing.length > 0) return `Nothing was saved. ${permissionNeeded(feature, missing)}`;
  }
  return null;
}

/** After the merchant revoked scopes (app/scopes_update): what can no longer work is turned off. Which features were. */
export async function turnOffUngrantedFeatures(db: PrismaClient, shop: string, granted: readonly string[]): Promise<ScopedFeature[]> {
  const off = FEATURES.filter((feature) => missingScopes(FEATURE_SCOPES[feature], granted).length > 0);
  if (off.length === 0) return [];
  const turnedOff: ScopedFeature[] = [];
  for (const feature of off) {
    const changed = await db.shop.updateMany({ where: { shop, [feature]: true }, data: { [feature]: false } });
    if (changed.count > 0) turnedOff.push(feature);
  }
  return turnedOff;
}
