import type { OrderRecord, PrismaClient } from "@prisma/client";
import { decide } from "../commissions";
import { emailKey } from "../../platform/text/email-key";
import { orderRecordIdsByEmail } from "../referrals";
import { commissionDataSchema, parseEnvelope } from "./webhook-envelope";
import { ignored, processed, type EventResult } from "./event-result";
import { commaList } from "../../platform/text/comma-list";


/** commission-status-updated carries no transaction_id: take it from the commission-created event of the same commission. */
async function transactionIdFromCreation(db: PrismaClient, shop: string, commissionId: string): Promise<string | null> {
  const created = await db.serviceEvent.findFirst({
    where: { shop, reference: `commission:${commissionId}`, eventType: "commission-created" },
    select: { payload: true },
  });
  if (!created) return null;
  const parsed = parseEnvelope(created.payload);
  if (!parsed.ok) return null;
  const data = commissionDataSchema.safeParse(parsed.envelope.event_data);
  return data.success ? data.data.commission.transaction_id : null;
}

/** Without an order id: the newest recorded order of the referred customer in that campaign that is not settled yet. */
async function recordByCustomerAndCampaign(
  db: PrismaClient,
  shop: string,
  email: string,
  campaignUid: string | null,
): Promise<OrderRecord | null> {
  const ids = await orderRecordIdsByEmail(db, shop, email);
  if (ids.length === 0) return null;
  const candidates = await db.orderRecord.findMany({
    where: { id: { in: ids }, status: { in: ["recorded", "needs_review"] } },
    orderBy: { createdAt: "desc" },
  });
  const inCampaign = candidates.filter(
    (r) => campaignUid === null || commaList(r.campaignUids).includes(campaignUid),
  );
  return inCampaign.find((r) => r.commissionState === null || r.commissionState === "pending") ?? null;
}

/** commission-created and commission-status-updated: the matching order's commission state follows the service. */
export async function applyCommissionEvent(db: PrismaClient, shop: string, eventData: unknown): Promise<EventResult> {
  const parsed = commissionDataSchema.safeParse(eventData);
  if (!parsed.success) return ignored("The event has no commission the app can read.");
  const { commission, referred_contact: customer, campaign } = parsed.data;

  let orderId = commission.transaction_id;
  if (!orderId && commission.id) orderId = await transactionIdFromCreation(db, shop, commission.id);
  let record = orderId ? await db.orderRecord.findUnique({ where: { shop_orderId: { shop, orderId } } }) : null;
  let how = "by its order id";
  const email = emailKey(customer?.email);
  if (!record && !orderId && email) {
    record = await recordByCustomerAndCampaign(db, shop, email, campaign?.id ?? null);
    how = "by the customer's email and campaign";
  }
  const label = `Commission ${commission.id ?? "?"}`;
  if (!record) {
    return ignored(`${label} (${commission.status}) matches no order of this shop${orderId ? ` (transaction ${orderId})` : ""}.`);
  }
  const order = record.orderName ?? record.orderId;
  // The service decided it: its owner moves the state (never back to pending) and sends the decision's trigger, once.
  const decided = await decide(
    { db },
    {
      shop,
      service: "reported",
      state: commission.status,
      by: "referral service",
      recordId: record.id,
      commission: {
        orderId: record.orderId,
        campaignUid: campaign?.id ?? null,
        commissionUid: commission.id,
        referrerEmail: parsed.data.contact?.email,
        campaignName: campaign?.name,
      },
    },
  );
  if (!decided.ok || !decided.moved) {
    return processed(`${label}: order ${order} already shows ${record.commissionState}.`);
  }
  return processed(`${label} is ${commission.status}: order ${order} updated (matched ${how}).`);
}
