// Object shapes of the webhook payloads ("Shared object shapes" in the document).
import type { Ambassador, Campaign, Commission, Store } from "../state";
import { formatWebhookTime } from "../dates";
import { centsToNumber } from "../money";
import { memorableUrl } from "./campaigns";

const stateNames = ["pending", "approved", "denied"] as const;

export function contactShort(ambassador: Ambassador) {
  return {
    id: ambassador.id,
    first_name: ambassador.firstName,
    last_name: ambassador.lastName,
    email: ambassador.email,
    internal_id: ambassador.uid,
  };
}

export function contactFull(store: Store, ambassador: Ambassador) {
  return {
    ...contactShort(ambassador),
    test_mode: ambassador.sandbox,
    created_at: formatWebhookTime(ambassador.createdMs),
    enrolled_at: ambassador.enrolledMs === null ? null : formatWebhookTime(ambassador.enrolledMs),
    unenrolled_at: ambassador.unenrolledMs === null ? null : formatWebhookTime(ambassador.unenrolledMs),
    status: ambassador.status,
    phone: ambassador.address.phone,
    company: ambassador.company,
    job_title: null,
    street: ambassador.address.street,
    city: ambassador.address.city,
    state: ambassador.address.state,
    zip: ambassador.address.zip,
    country: ambassador.address.country,
    memorable_url: memorableUrl(store, ambassador),
  };
}

export function campaignShape(campaign: Campaign) {
  return { id: Number(campaign.uid), name: campaign.name, description: campaign.description };
}

export function commissionShape(commission: Commission, withTransaction: boolean) {
  return {
    id: commission.id,
    revenue: centsToNumber(commission.revenueCents),
    amount: centsToNumber(commission.amountHundredths),
    created_at: formatWebhookTime(commission.createdMs),
    approved_at: commission.approvedMs === null ? null : formatWebhookTime(commission.approvedMs),
    status: stateNames[commission.state],
    ...(withTransaction ? { transaction_id: commission.transactionUid } : {}),
  };
}

/** commission-created / commission-status-updated payload. */
export function commissionEventData(store: Store, commission: Commission, withTransaction: boolean) {
  const affiliate = store.ambassadors.get(commission.affiliateId);
  const customer = commission.customerAmbassadorId === null ? undefined : store.ambassadors.get(commission.customerAmbassadorId);
  const campaign = store.campaigns.get(commission.campaignUid);
  return {
    contact: affiliate ? contactShort(affiliate) : null,
    referred_contact: customer ? contactShort(customer) : null,
    campaign: campaign ? campaignShape(campaign) : null,
    commission: commissionShape(commission, withTransaction),
  };
}
