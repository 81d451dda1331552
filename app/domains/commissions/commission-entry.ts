import type { CommissionAtService } from "./service-answer.server";

// One commission as the Commissions page's selection and the bulk run's list
// carry it: "uid:order:campaign". Older pages and runs carry "uid" or
// "uid:order"; decide then takes the record's only campaign.

export function commissionEntry(c: { commissionUid: string; transactionId: string | null; campaignUid: string | null }): string {
  return `${c.commissionUid}:${c.transactionId ?? ""}:${c.campaignUid ?? ""}`;
}

export function readCommissionEntry(entry: string): CommissionAtService & { commissionUid: string } {
  const [commissionUid = "", orderId, campaignUid] = entry.split(":");
  return { commissionUid, orderId: orderId || null, campaignUid: campaignUid || null };
}
