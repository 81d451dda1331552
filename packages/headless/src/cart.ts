import type { KeptReferral, Landing } from "./landing";
import { CAMPAIGN_ATTRIBUTE, CODE_ATTRIBUTE } from "./settings";

export interface CartAttribute {
  key: string;
  value: string;
}

/** What the kit reads of a cart. */
export interface CartState {
  id: string;
  attributes: CartAttribute[];
  discountCodes: { code: string; applicable?: boolean }[];
}

/**
 * A cart the kit can write to: Hydrogen's cart handler (hydrogenCart) or the
 * kit's own Storefront API client (storefrontCart). The Storefront API replaces
 * a cart's whole attribute list and whole discount code list on each update,
 * so the kit always sends the cart's other entries back with its own.
 */
export interface ReferralCart {
  /** The visitor's cart, or null when they have none yet. */
  get(): Promise<CartState | null>;
  create(input: { attributes: CartAttribute[]; discountCodes: string[] }): Promise<CartState>;
  updateAttributes(cartId: string, attributes: CartAttribute[]): Promise<CartState>;
  updateDiscountCodes(cartId: string, discountCodes: string[]): Promise<CartState>;
}

/** The Storefront API refused a cart update (its userErrors, or a GraphQL error). */
export class ReferralCartError extends Error {
  override name = "ReferralCartError";
}

export interface ApplyOptions {
  /**
   * The campaigns with a live friend's offer (the app's /api/headless/offer-campaigns
   * answer). The code a visitor arrives with is applied as a discount code only
   * when its campaign is one of them, or the link named no campaign.
   */
  offerCampaigns: readonly string[];
}

export interface ApplyResult {
  /** The cart after the kit's writes; null when nothing needed one. */
  cart: CartState | null;
  /** A cart the kit created (a Hydrogen route then saves its id in the cart cookie). */
  created: boolean;
  attributesWritten: boolean;
  /** The friend's offer code the kit added, if any. */
  discountCodeApplied: string | null;
}

/** The two attributes for a kept code, as the theme embed writes them. */
export const referralAttributes = (kept: KeptReferral): CartAttribute[] => [
  { key: CODE_ATTRIBUTE, value: kept.code },
  { key: CAMPAIGN_ATTRIBUTE, value: kept.campaign },
];

const OURS = new Set([CODE_ATTRIBUTE, CAMPAIGN_ATTRIBUTE]);

function inStep(cart: CartState, kept: KeptReferral): boolean {
  const value = (key: string) => cart.attributes.find((a) => a.key === key)?.value ?? "";
  return value(CODE_ATTRIBUTE) === kept.code && value(CAMPAIGN_ATTRIBUTE) === kept.campaign;
}

/** The code to apply as the friend's offer on this landing, if its campaign has a live one. */
export function offerCode(landing: Landing, offerCampaigns: readonly string[]): string | null {
  const arrived = landing.arrived;
  const live = offerCampaigns.filter((uid) => uid && uid !== "none");
  if (!arrived || live.length === 0) return null;
  return !arrived.campaign || live.includes(arrived.campaign) ? arrived.code : null;
}

/**
 * Puts a landing's kept code on the visitor's cart (the hidden attributes the
 * order carries as note_attributes) and, on arrival from a link whose campaign
 * has a live friend's offer, applies that code as a discount code. Writes only
 * what differs; attributes and codes of others on the cart are kept.
 */
export async function applyReferralToCart(cart: ReferralCart, landing: Landing, options: ApplyOptions): Promise<ApplyResult> {
  const kept = landing.kept;
  const discount = offerCode(landing, options.offerCampaigns);
  const result: ApplyResult = { cart: null, created: false, attributesWritten: false, discountCodeApplied: null };
  if (!kept && !discount) return result;

  const current = await cart.get();
  if (!current) {
    const created = await cart.create({ attributes: kept ? referralAttributes(kept) : [], discountCodes: discount ? [discount] : [] });
    return { cart: created, created: true, attributesWritten: !!kept, discountCodeApplied: discount };
  }
  // Both updates are decided on the cart as read: a mutation's answer may carry
  // only part of the cart (Hydrogen's default mutation fragment has no attributes).
  let after: CartState = current;
  if (kept && !inStep(current, kept)) {
    const others = current.attributes.filter((a) => !OURS.has(a.key));
    after = await cart.updateAttributes(current.id, [...others, ...referralAttributes(kept)]);
    result.attributesWritten = true;
  }
  if (discount && !current.discountCodes.some((d) => d.code.toLowerCase() === discount.toLowerCase())) {
    after = await cart.updateDiscountCodes(current.id, [...current.discountCodes.map((d) => d.code), discount]);
    result.discountCodeApplied = discount;
  }
  result.cart = after;
  return result;
}
