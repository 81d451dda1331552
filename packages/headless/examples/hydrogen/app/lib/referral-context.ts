// What the example routes use of a Hydrogen app's context. A Hydrogen app built
// with createHydrogenContext already has `cart` (createCartHandler) and
// `customerAccount`; the two variables are the storefront's own
// (.env, or Oxygen's environment variables).
import type { CustomerAccount, HydrogenCart } from "@shopify/hydrogen";

export interface ReferralContext {
  cart: HydrogenCart;
  customerAccount: CustomerAccount;
  env: {
    /** The shop's myshopify.com domain. */
    PUBLIC_STORE_DOMAIN: string;
    /** The Referral Bridge app's address (its application_url). */
    REFERRAL_BRIDGE_APP_URL: string;
  };
}

export const referralContext = (context: unknown) => context as ReferralContext;
