import { adminCall, type AdminCallDeps } from "./admin-call.server";

const SHOP_CURRENCY = `#graphql
query ReferralBridgeShopCurrency {
  shop { currencyCode }
}`;

/** The currency the shop sells in (its store currency): what store credit and an amount-off discount are counted in. */
export async function shopCurrencyOf(deps: AdminCallDeps): Promise<string> {
  const data = await adminCall<{ shop: { currencyCode: string } }>(deps, SHOP_CURRENCY, {});
  return data.shop.currencyCode;
}
