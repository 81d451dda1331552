// The app's Shopify Flow triggers: each one's handle (as in its extension's
// TOML under extensions/flow-*) and the payload it sends with
// flowTriggerReceive. Pure functions: the domains that learn an event build
// the payload here and queue it (queue-trigger.server.ts).
//
// Field keys are the TOML's `key`s; a customer or order reference goes as
// customer_id / order_id with Shopify's numeric id.

export const FLOW_TRIGGER_HANDLES = {
  referralCredited: "referral-credited",
  commissionApproved: "commission-approved",
  commissionDenied: "commission-denied",
  ambassadorEnrolled: "ambassador-enrolled",
  referralBlocked: "referral-blocked",
  payoutStoreCredit: "payout-store-credit",
  referralCodeLeaked: "referral-code-leaked",
} as const;

export type FlowTriggerHandle = (typeof FLOW_TRIGGER_HANDLES)[keyof typeof FLOW_TRIGGER_HANDLES];

export type FlowValue = string | number | boolean;
export type FlowPayload = Record<string, FlowValue>;

export interface FlowTrigger {
  handle: FlowTriggerHandle;
  payload: FlowPayload;
}

/** Shopify refuses a trigger payload above 50 KB. */
export const FLOW_PAYLOAD_LIMIT_BYTES = 50_000;

/** A text field is cut here; with the few fields of a trigger the payload stays far under the limit. */
const MAX_TEXT = 1_000;

export function payloadBytes(payload: FlowPayload): number {
  return Buffer.byteLength(JSON.stringify(payload), "utf8");
}

/**
 * Shopify's numeric id from "123" or "gid://shopify/Order/123", as Flow's
 * reference fields take it (a number); undefined when there is none. An id
 * above 2^53 would lose digits as a JSON number from JavaScript, which
 * would name another customer: it goes as its digits, exact.
 */
export function referenceId(id: string | null | undefined): number | string | undefined {
  const digits = id?.match(/(?:^|\/)(\d+)$/)?.[1];
  if (!digits || /^0+$/.test(digits)) return undefined;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : digits.replace(/^0+/, "");
}

const text = (value: string | null | undefined) => (value ?? "").slice(0, MAX_TEXT);

/** An exact decimal as Flow's number_decimal takes it; 0 when unknown. */
function decimal(value: string | null | undefined): number {
  const parsed = Number(value);
  return value && Number.isFinite(parsed) ? parsed : 0;
}

function withReferences(references: { order_id?: string | null; customer_id?: string | null }, fields: FlowPayload): FlowPayload {
  const payload: FlowPayload = {};
  for (const [key, id] of Object.entries(references)) {
    const value = referenceId(id);
    if (value !== undefined) payload[key] = value;
  }
  return { ...payload, ...fields };
}

function trigger(handle: FlowTriggerHandle, payload: FlowPayload): FlowTrigger {
  const size = payloadBytes(payload);
  // Cannot happen with the caps above; a new field without one would.
  if (size > FLOW_PAYLOAD_LIMIT_BYTES) throw new Error(`Flow trigger ${handle}: payload of ${size} bytes is over Shopify's limit`);
  return { handle, payload };
}

export interface ReferralCredited {
  orderId: string;
  customerId?: string | null;
  referrerEmail?: string | null;
  code?: string | null;
  campaign: string;
  revenue?: string | null;
  commission?: string | null;
}

export function referralCredited(event: ReferralCredited): FlowTrigger {
  return trigger(
    FLOW_TRIGGER_HANDLES.referralCredited,
    withReferences(
      { order_id: event.orderId, customer_id: event.customerId },
      {
        "Referrer email": text(event.referrerEmail),
        "Referral code": text(event.code),
        Campaign: text(event.campaign),
        Revenue: decimal(event.revenue),
        Commission: decimal(event.commission),
      },
    ),
  );
}

/** Who decided: the merchant (Commissions page), the referral service (its webhook, a campaign's own approval), or the app (the shop's approval setting, a cancelled or refunded order). */
export type DecidedBy = "merchant" | "referral service" | "app";

export interface CommissionDecided {
  state: "approved" | "denied";
  orderId: string;
  referrerEmail?: string | null;
  campaign?: string | null;
  by: DecidedBy;
  /** Denied only: why, when the app knows. */
  reason?: string | null;
}

export function commissionDecided(event: CommissionDecided): FlowTrigger {
  const common = { "Referrer email": text(event.referrerEmail), Campaign: text(event.campaign) };
  return event.state === "approved"
    ? trigger(FLOW_TRIGGER_HANDLES.commissionApproved, withReferences({ order_id: event.orderId }, { ...common, "Approved by": event.by }))
    : trigger(FLOW_TRIGGER_HANDLES.commissionDenied, withReferences({ order_id: event.orderId }, { ...common, "Denied by": event.by, Reason: text(event.reason) }));
}

export type EnrolledHow = "storefront" | "thank_you" | "pos" | "service_webhook";

export interface AmbassadorEnrolled {
  customerId?: string | null;
  email: string;
  shareLink?: string | null;
  how: EnrolledHow;
}

export function ambassadorEnrolled(event: AmbassadorEnrolled): FlowTrigger {
  return trigger(
    FLOW_TRIGGER_HANDLES.ambassadorEnrolled,
    withReferences({ customer_id: event.customerId }, { "Ambassador email": text(event.email), "Share link": text(event.shareLink), How: event.how }),
  );
}

export interface ReferralBlocked {
  orderId: string;
  customerId?: string | null;
  /** The guard rule (self_referral, ...), or "service" when the referral service refused the referral. */
  rule: string;
  reason?: string | null;
  code?: string | null;
}

export function referralBlocked(event: ReferralBlocked): FlowTrigger {
  return trigger(
    FLOW_TRIGGER_HANDLES.referralBlocked,
    withReferences({ order_id: event.orderId, customer_id: event.customerId }, { Rule: text(event.rule), Reason: text(event.reason), "Referral code": text(event.code) }),
  );
}

export interface PayoutStoreCredit {
  customerId: string;
  email: string;
  amount: string;
  currency: string;
  payoutId: string;
}

export function payoutStoreCredit(event: PayoutStoreCredit): FlowTrigger {
  return trigger(
    FLOW_TRIGGER_HANDLES.payoutStoreCredit,
    withReferences(
      { customer_id: event.customerId },
      { "Ambassador email": text(event.email), Amount: decimal(event.amount), Currency: text(event.currency), "Payout id": text(event.payoutId) },
    ),
  );
}

export interface ReferralCodeLeaked {
  code: string;
  ambassadorEmail?: string | null;
  /** The buyers without a link counted when the code was flagged. */
  buyers: number;
  windowDays: number;
}

export function referralCodeLeaked(event: ReferralCodeLeaked): FlowTrigger {
  return trigger(FLOW_TRIGGER_HANDLES.referralCodeLeaked, {
    "Referral code": text(event.code),
    "Ambassador email": text(event.ambassadorEmail),
    Buyers: event.buyers,
    "Window days": event.windowDays,
  });
}
