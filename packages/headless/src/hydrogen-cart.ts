import { ReferralCartError, type CartAttribute, type CartState, type ReferralCart } from "./cart";

/** What the kit uses of Hydrogen's cart handler (createCartHandler); Hydrogen itself is not imported. */
export interface HydrogenCartHandler {
  get(): Promise<unknown>;
  create(input: { attributes?: CartAttribute[]; discountCodes?: string[] }): Promise<unknown>;
  updateAttributes(attributes: CartAttribute[], optionalParams?: { cartId?: string }): Promise<unknown>;
  updateDiscountCodes(discountCodes: string[], optionalParams?: { cartId?: string }): Promise<unknown>;
}

interface MutationResult {
  cart?: unknown;
  userErrors?: { message?: string }[];
  errors?: unknown;
}

function state(cart: unknown): CartState | null {
  if (!cart || typeof cart !== "object") return null;
  const raw = cart as { id?: unknown; attributes?: unknown; discountCodes?: unknown };
  if (typeof raw.id !== "string") return null;
  return {
    id: raw.id,
    attributes: Array.isArray(raw.attributes) ? (raw.attributes as CartAttribute[]) : [],
    discountCodes: Array.isArray(raw.discountCodes) ? (raw.discountCodes as CartState["discountCodes"]) : [],
  };
}

function afterMutation(what: string, answer: unknown): CartState {
  const result = (answer ?? {}) as MutationResult;
  const refused = [...(result.userErrors ?? []).map((e) => e.message ?? "refused"), ...(Array.isArray(result.errors) ? result.errors.map((e: { message?: string }) => e.message ?? "error") : [])];
  const cart = state(result.cart);
  if (refused.length || !cart) throw new ReferralCartError(`${what}: ${refused.join("; ") || "no cart in the answer"}`);
  return cart;
}

/**
 * Hydrogen's cart handler as a ReferralCart. Its default cart fragment already
 * asks for the cart's attributes and discount codes; a custom `cartQueryFragment`
 * or `cartMutateFragment` must keep them.
 */
export function hydrogenCart(handler: HydrogenCartHandler): ReferralCart {
  return {
    get: async () => state(await handler.get()),
    create: async (input) => afterMutation("cartCreate", await handler.create(input)),
    updateAttributes: async (cartId, attributes) => afterMutation("cartAttributesUpdate", await handler.updateAttributes(attributes, { cartId })),
    updateDiscountCodes: async (cartId, codes) => afterMutation("cartDiscountCodesUpdate", await handler.updateDiscountCodes(codes, { cartId })),
  };
}
