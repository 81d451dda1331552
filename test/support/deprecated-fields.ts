// Deprecated fields the app's documents asked the Admin API stand-in for.
// Shopify still answers them (with an X-Shopify-API-Deprecated-Reason
// header), so the stand-in does too, but every test fails that made the app
// use one (setup.ts): a deprecated field is removed in a later version.

export interface DeprecatedUse {
  operation: string;
  messages: string[];
}

const uses: DeprecatedUse[] = [];

export function recordDeprecatedUse(use: DeprecatedUse): void {
  uses.push(use);
}

/** The uses since the last call, which forgets them. */
export function takeDeprecatedUses(): DeprecatedUse[] {
  return uses.splice(0, uses.length);
}
