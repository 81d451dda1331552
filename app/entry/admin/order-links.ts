/** The order's page in the Shopify admin; opened at the top level, out of the app's frame. */
export function shopifyOrderUrl(shop: string, orderId: string): string {
  const store = shop.replace(/\.myshopify\.com$/i, "");
  return `https://admin.shopify.com/store/${encodeURIComponent(store)}/orders/${encodeURIComponent(orderId)}`;
}
