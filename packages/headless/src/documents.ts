// The Storefront API documents of the kit's own cart client (storefront-cart.ts),
// for a front end without Hydrogen. test/packages/headless/documents.test.ts
// validates each against Shopify's 2026-10 Storefront schema.

export const STOREFRONT_API_VERSION = "2026-10";

const CART_FIELDS = `#graphql
fragment ReferralBridgeCart on Cart {
  id
  attributes { key value }
  discountCodes { code applicable }
}`;

export const CART_QUERY = `#graphql
query ReferralBridgeCart($cartId: ID!) {
  cart(id: $cartId) { ...ReferralBridgeCart }
}
${CART_FIELDS}`;

export const CART_CREATE = `#graphql
mutation ReferralBridgeCartCreate($input: CartInput!) {
  cartCreate(input: $input) {
    cart { ...ReferralBridgeCart }
    userErrors { field message code }
  }
}
${CART_FIELDS}`;

export const CART_ATTRIBUTES_UPDATE = `#graphql
mutation ReferralBridgeCartAttributes($cartId: ID!, $attributes: [AttributeInput!]!) {
  cartAttributesUpdate(cartId: $cartId, attributes: $attributes) {
    cart { ...ReferralBridgeCart }
    userErrors { field message code }
  }
}
${CART_FIELDS}`;

export const CART_DISCOUNT_CODES_UPDATE = `#graphql
mutation ReferralBridgeCartDiscountCodes($cartId: ID!, $discountCodes: [String!]!) {
  cartDiscountCodesUpdate(cartId: $cartId, discountCodes: $discountCodes) {
    cart { ...ReferralBridgeCart }
    userErrors { field message code }
  }
}
${CART_FIELDS}`;

/** Every Storefront API document the kit sends, by name (for the schema test). */
export const STOREFRONT_DOCUMENTS = { CART_QUERY, CART_CREATE, CART_ATTRIBUTES_UPDATE, CART_DISCOUNT_CODES_UPDATE };
