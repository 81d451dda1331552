import { readFields } from "../field-reader";
import { isRecord, parseText } from "../scalars";
import type { Commission, CommissionFraud, CommissionStatus } from "../types";

const STATUS_BY_CODE: Record<string, CommissionStatus> = {
  "0": "pending",
  "1": "approved",
  "2": "denied",
  pending: "pending",
  approved: "approved",
  denied: "denied",
};

/** `is_approved` ("0"/"1"/"2", numbers, or the webhook words) to a status; null when unknown. */
export function parseCommissionStatus(value: unknown): CommissionStatus | null {
  const text = parseText(value)?.trim().toLowerCase();
  return (text !== undefined && STATUS_BY_CODE[text]) || null;
}

function normaliseFraud(raw: unknown): CommissionFraud | null {
  if (!isRecord(raw)) return null;
  const r = readFields(raw, "commission fraud");
  return {
    status: r.text("status")?.toLowerCase() ?? null,
    score: r.number("score"),
    reasons: r.array("reasons").map(String),
    extra: r.extra(),
  };
}

export function normaliseCommission(raw: unknown): Commission {
  const r = readFields(raw, "commission");
  return {
    commissionUid: r.requiredText("commission_uid"),
    campaignUid: r.text("campaign_uid"),
    affiliateUid: r.text("affiliate_uid"),
    referringUid: r.text("referring_uid"),
    remoteCustomerEmail: r.text("remote_customer_email"),
    remoteCustomerId: r.text("remote_customer_id"),
    affiliateEmail: r.text("affiliate_email"),
    affiliateFirstName: r.text("affiliate_first_name"),
    affiliateLastName: r.text("affiliate_last_name"),
    revenueAmount: r.money("revenue_amount"),
    commissionAmount: r.money("commission_amount"),
    createdAt: r.date("created_at"),
    transactionId: r.text("transaction_id"),
    status: parseCommissionStatus(r.raw("is_approved")),
    isSandbox: r.flag("is_sandbox"),
    isTrial: r.flag("is_trial"),
    isWelcomeBonus: r.flag("is_welcome_bonus"),
    eventData1: r.text("event_data1"),
    eventData2: r.text("event_data2"),
    eventData3: r.text("event_data3"),
    fraud: normaliseFraud(r.raw("fraud")),
    extra: r.extra(),
  };
}
