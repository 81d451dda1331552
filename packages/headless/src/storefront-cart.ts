import { ReferralCartError, type CartState, type ReferralCart } from "./cart";
import { CART_ATTRIBUTES_UPDATE, CART_CREATE, CART_DISCOUNT_CODES_UPDATE, CART_QUERY, STOREFRONT_API_VERSION } from "./documents";

export interface StorefrontCartOptions {
  /** The shop's Storefront API origin, e.g. https://shop.example.com or https://<shop>.myshopify.com. */
  storeDomain: string;
  /** A public Storefront API access token (the Headless channel's). */
  publicAccessToken: string;
  /** The visitor's cart id as the front end keeps it; undefined when there is none yet. */
  getCartId(): string | undefined;
  /** Called with a cart the kit created, for the front end to keep. */
  setCartId(cartId: string): void;
  fetch?: typeof fetch;
}

interface Answer<T> {
  data?: T;
  errors?: { message?: string }[];
}

type Payload = { cart: CartState | null; userErrors: { message: string }[] };

/** The kit's own Storefront API cart client, for a front end without Hydrogen. */
export function storefrontCart(options: StorefrontCartOptions): ReferralCart {
  const origin = options.storeDomain.includes("://") ? options.storeDomain : `https://${options.storeDomain}`;
  const endpoint = `${origin.replace(/\/+$/, "")}/api/${STOREFRONT_API_VERSION}/graphql.json`;
  const doFetch = options.fetch ?? fetch;

  async function call<T>(what: string, query: string, variables: Record<string, unknown>): Promise<T> {
    const response = await doFetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Storefront-Access-Token": options.publicAccessToken },
      body: JSON.stringify({ query, variables }),
    });
    const answer = (await response.json().catch(() => ({}))) as Answer<T>;
    if (!response.ok || answer.errors?.length || !answer.data) {
      throw new ReferralCartError(`${what}: ${answer.errors?.map((e) => e.message).join("; ") || `HTTP ${response.status}`}`);
    }
    return answer.data;
  }

  function cartOf(what: string, payload: Payload | undefined): CartState {
    if (payload?.userErrors.length || !payload?.cart) throw new ReferralCartError(`${what}: ${payload?.userErrors.map((e) => e.message).join("; ") || "no cart in the answer"}`);
    return payload.cart;
  }

  return {
    async get() {
      const cartId = options.getCartId();
      if (!cartId) return null;
      return (await call<{ cart: CartState | null }>("cart", CART_QUERY, { cartId })).cart;
    },
    async create(input) {
      const cart = cartOf("cartCreate", (await call<{ cartCreate: Payload }>("cartCreate", CART_CREATE, { input })).cartCreate);
      options.setCartId(cart.id);
      return cart;
    },
    async updateAttributes(cartId, attributes) {
      return cartOf("cartAttributesUpdate", (await call<{ cartAttributesUpdate: Payload }>("cartAttributesUpdate", CART_ATTRIBUTES_UPDATE, { cartId, attributes })).cartAttributesUpdate);
    },
    async updateDiscountCodes(cartId, discountCodes) {
      return cartOf(
        "cartDiscountCodesUpdate",
        (await call<{ cartDiscountCodesUpdate: Payload }>("cartDiscountCodesUpdate", CART_DISCOUNT_CODES_UPDATE, { cartId, discountCodes })).cartDiscountCodesUpdate,
      );
    },
  };
}
