import { CAMPAIGN_SHAPE, CODE_SHAPE } from "./order-event";

// What the web pixel posts at checkout_completed (extensions/referral-pixel):
// {shop, checkoutToken, orderId, code, campaign}. Anyone can post anything
// here, so every field is bounded and shaped before it is stored.

export interface PixelSignalInput {
  shop: string;
  checkoutToken: string;
  /** The order's numeric id, when the pixel knew it. */
  orderId: string | null;
  code: string;
  campaign: string | null;
}

/**
 * A signal re-opens an order judged not referred only this long after the
 * order was placed. The pixel posts at checkout_completed, seconds after the
 * order is placed; half an hour leaves room for a slow network and a
 * reloaded thank-you page, and none for crediting an old order after the fact.
 * An order with no code waits this long for its signal (awaiting_signal).
 */
export const PIXEL_REOPEN_WINDOW_MS = 30 * 60_000;
/**
 * Signals are kept this long, then deleted by the sweep: longer than Shopify
 * retries a webhook (4 h), so that a signal still waits for an order whose
 * webhook comes late.
 */
export const PIXEL_SIGNAL_TTL_MS = 6 * 60 * 60_000;
/** The shop's sweep runs at the end of a slot of this length: one sweep job per shop and slot, however many ask for it. */
export const PIXEL_SWEEP_SLOT_MS = 60_000;

/** Whether a stored signal is this order's: it names no other order, and it came within the window after the order was placed. */
export function signalFit(signal: { orderId: string | null; receivedAt: Date }, order: { orderId: string; placedAt: Date }): "joins" | "other_order" | "too_late" {
  if (signal.orderId !== null && signal.orderId !== order.orderId) return "other_order";
  return signal.receivedAt.getTime() - order.placedAt.getTime() > PIXEL_REOPEN_WINDOW_MS ? "too_late" : "joins";
}

/** Whether the web pixel's signal for an order may still come: the order has a checkout, placed less than the window ago. */
export function signalMayCome(order: { checkoutToken: string | null | undefined; placedAt: Date }, now: Date): boolean {
  return Boolean(order.checkoutToken) && now.getTime() - order.placedAt.getTime() < PIXEL_REOPEN_WINDOW_MS;
}

/** When an order waiting for its signal stops waiting. */
export const signalWaitEnds = (placedAt: Date) => new Date(placedAt.getTime() + PIXEL_REOPEN_WINDOW_MS);

/** The shop's sweep job that runs at the end of the slot `at` falls in (strictly after `at`): its subject and when it is due. */
export function sweepSlot(at: Date): { subject: string; runAt: Date } {
  const slot = Math.floor(at.getTime() / PIXEL_SWEEP_SLOT_MS) + 1;
  return { subject: `slot:${slot}`, runAt: new Date(slot * PIXEL_SWEEP_SLOT_MS) };
}

/** The shop's sweep that ends the wait of an order placed at `placedAt`: the input of its pixel.sweep job. */
export function waitEndSweep(shop: string, placedAt: Date) {
  return { shop, ...sweepSlot(signalWaitEnds(placedAt)), payload: {} };
}

/** The largest body the endpoint reads; a real signal is about 200 bytes. */
export const PIXEL_BODY_LIMIT = 2_048;

const SHOP_SHAPE = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;
/** Shopify's checkout tokens are 32 hex characters; newer ones may be longer, never other characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
/** The order id as a number, or as a global id ending in one (gid://shopify/Order/123). */
const ORDER_ID_SHAPE = /^(?:gid:\/\/shopify\/[A-Za-z]+\/)?([0-9]{1,20})$/;

export type PixelSignalRead = { ok: true; signal: PixelSignalInput } | { ok: false; problem: string };

const text = (value: unknown) => (typeof value === "string" ? value.trim() : undefined);

export function readPixelSignal(body: string): PixelSignalRead {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, problem: "The body is not JSON." };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, problem: "The body is not a JSON object." };
  const fields = value as Record<string, unknown>;
  const shop = text(fields.shop)?.toLowerCase();
  if (!shop || !SHOP_SHAPE.test(shop)) return { ok: false, problem: "shop must be a myshopify.com domain." };
  const checkoutToken = text(fields.checkoutToken);
  if (!checkoutToken || !TOKEN_SHAPE.test(checkoutToken)) return { ok: false, problem: "checkoutToken is missing or malformed." };
  const code = text(fields.code);
  if (!code || !CODE_SHAPE.test(code)) return { ok: false, problem: "code is missing or malformed." };
  const campaign = text(fields.campaign) || null;
  if (campaign !== null && !CAMPAIGN_SHAPE.test(campaign)) return { ok: false, problem: "campaign is malformed." };
  let orderId: string | null = null;
  if (fields.orderId !== undefined && fields.orderId !== null && fields.orderId !== "") {
    // A string only: a 64-bit id as a JSON number has lost its last digits already.
    const raw = text(fields.orderId);
    const match = raw ? ORDER_ID_SHAPE.exec(raw) : null;
    if (!match) return { ok: false, problem: "orderId is malformed." };
    orderId = match[1]!;
  }
  return { ok: true, signal: { shop, checkoutToken, orderId, code, campaign } };
}
