import type { OrderRecord, PrismaClient } from "@prisma/client";
import { queueCommissionDecided } from "../flow-triggers";
import { commissionStateAfter, moveCommissionState } from "../commissions";
import { emailKey } from "../../platform/text/email-key";
import { orderRecordIdsByEmail } from "../referrals";
import { commissionDataSchema, parseEnvelope } from "./webhook-envelope";
import { ignored, processed, type EventResult } from "./event-result";


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
    (r) => campaignUid === null || (r.campaignUids ?? "").split(",").map((s) => s.trim()).includes(campaignUid),
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
  // A settled commission never goes back to pending, whatever order the events arrive in.
  const next = commissionStateAfter(record.commissionState, commission.status);
  const found = record;
  // The move and its Flow trigger together: a retried event finds the state moved and queues nothing again.
  const moved =
    next !== undefined &&
    (await db.$transaction(async (tx) => {
      if (!(await moveCommissionState(tx, { id: found.id }, next))) return false;
      if (next === "approved" || next === "denied") {
        await queueCommissionDecided(tx, shop, {
          state: next,
          commissionId: commission.id,
          orderId: found.orderId,
          referrerEmail: parsed.data.contact?.email,
          campaign: campaign?.name ?? campaign?.id,
          by: "referral service",
        });
      }
      return true;
    }));
  if (!moved) {
    return processed(`${label}: order ${order} already shows ${record.commissionState}.`);
  }
  return processed(`${label} is ${next}: order ${order} updated (matched ${how}).`);
}
