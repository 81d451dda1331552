import type { PayoutCredit, PrismaClient } from "@prisma/client";
import { isUniqueViolation } from "../queue/enqueue.server";
import { addMoney, compareMoney, tryParseMoney } from "../referral-api/money";
import { emailKey } from "../referrals/email-key";
import type { AdminForShop } from "../shopify-admin/admin-access";
import { AdminCallError, type AdminGraphql } from "../shopify-admin/admin-graphql.server";
import { creditStoreCredit, findCustomerByEmail, storeCreditBalance } from "./shopify-customers.server";
import { payoutDataSchema } from "./webhook-envelope";
import { ignored, processed, unsettled, type EventResult } from "./event-result";

export interface PayoutDeps {
  db: PrismaClient;
  adminForShop: AdminForShop;
}

const STORE_PLATFORM = "storeplatform";

type Claim = { credit: PayoutCredit } | { result: EventResult };

/**
 * One PayoutCredit row per (shop, payout id), inserted before Shopify is
 * called: a second delivery, a replay under another event_id or a retry all
 * find the row and never credit twice.
 */
async function claim(db: PrismaClient, shop: string, serviceEventId: string, payoutId: string, email: string, amount: string): Promise<Claim> {
  try {
    return { credit: await db.payoutCredit.create({ data: { shop, payoutId, serviceEventId, email, amount } }) };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const credit = await db.payoutCredit.findUniqueOrThrow({ where: { shop_payoutId: { shop, payoutId } } });
  if (credit.state === "credited") return { result: processed(`Payout ${payoutId} was already credited as store credit.`) };
  if (credit.serviceEventId !== serviceEventId) {
    return { result: ignored(`Payout ${payoutId} is already being credited by another event.`) };
  }
  return { credit };
}

/** A credit whose answer was lost stays "sending" through later failures, so it is never sent again unchecked. */
function failedUnlessUnsure(credit: PayoutCredit): "failed" | "sending" {
  return credit.state === "sending" ? "sending" : "failed";
}

async function update(db: PrismaClient, id: string, data: Partial<Omit<PayoutCredit, "id">>): Promise<void> {
  await db.payoutCredit.update({ where: { id }, data });
}

/** After an attempt whose answer was lost: did that credit land? Read from the balance it should have moved. */
async function settleLostAnswer(db: PrismaClient, credit: PayoutCredit, balance: string): Promise<"credited" | "resend" | "unclear"> {
  if (credit.balanceBefore === null) return "resend";
  if (compareMoney(balance, addMoney(credit.balanceBefore, credit.amount)) === 0) {
    await update(db, credit.id, { state: "credited", lastError: null });
    return "credited";
  }
  return compareMoney(balance, credit.balanceBefore) === 0 ? "resend" : "unclear";
}

async function sendCredit(db: PrismaClient, admin: AdminGraphql, credit: PayoutCredit): Promise<EventResult> {
  const customer = await findCustomerByEmail(admin, credit.email);
  if (!customer) {
    const reason = `No Shopify customer has the email ${credit.email}; create the customer, then retry.`;
    await update(db, credit.id, { state: failedUnlessUnsure(credit), lastError: reason });
    return unsettled({ type: "fail", reason });
  }
  const { currency, balance } = await storeCreditBalance(admin, customer.id);
  if (credit.state === "sending") {
    const lost = await settleLostAnswer(db, credit, balance);
    if (lost === "credited") return processed(`Payout ${credit.payoutId}: ${credit.amount} ${currency} store credit confirmed for ${credit.email}.`);
    if (lost === "unclear") {
      const reason = `Shopify did not answer the store credit of payout ${credit.payoutId}, and ${credit.email}'s balance has changed since. Check their store credit before retrying.`;
      await update(db, credit.id, { state: "needs_review", lastError: reason });
      return unsettled({ type: "fail", reason });
    }
  }
  await update(db, credit.id, {
    state: "sending",
    customerId: customer.id,
    currency,
    balanceBefore: balance,
    attempts: credit.attempts + 1,
  });
  try {
    const transactionId = await creditStoreCredit(admin, { customerId: customer.id, amount: credit.amount, currency });
    await update(db, credit.id, { state: "credited", transactionId, lastError: null });
    return processed(`Payout ${credit.payoutId}: ${credit.amount} ${currency} store credit given to ${credit.email}.`);
  } catch (error) {
    if (!(error instanceof AdminCallError)) throw error;
    // A refusal surely credited nothing; a lost answer stays "sending" so the next attempt checks the balance first.
    await update(db, credit.id, { state: error.applied === false ? "failed" : "sending", lastError: error.message });
    return unsettled({ type: "retry", reason: error.message });
  }
}

/** payout-created: a store-platform money payout becomes the ambassador's Shopify store credit, once. */
export async function applyPayoutEvent(
  deps: PayoutDeps,
  shop: string,
  serviceEventId: string,
  eventData: unknown,
): Promise<EventResult> {
  const parsed = payoutDataSchema.safeParse(eventData);
  if (!parsed.success) return ignored("The event has no payout the app can read.");
  const { payout, contact } = parsed.data;
  if (payout.payment_method !== STORE_PLATFORM) {
    return processed(`Payout ${payout.id} is paid by ${payout.payment_method ?? "an unnamed method"}; only store platform payouts become store credit.`);
  }
  const settings = await deps.db.shop.findUnique({ where: { shop }, select: { storeCreditPayouts: true } });
  if (!settings?.storeCreditPayouts) return ignored(`Payout ${payout.id}: store credit payouts are turned off.`);
  if ((payout.unit ?? "money") !== "money") return ignored(`Payout ${payout.id} is in ${payout.unit}, not money.`);
  const amount = tryParseMoney(payout.amount);
  if (!amount || compareMoney(amount, "0") <= 0) return ignored(`Payout ${payout.id} has no positive amount.`);
  const email = emailKey(contact?.email);
  if (!email) return unsettled({ type: "fail", reason: `Payout ${payout.id} names no ambassador email.` });

  const claimed = await claim(deps.db, shop, serviceEventId, payout.id, email, amount);
  if ("result" in claimed) return claimed.result;
  if (claimed.credit.state === "needs_review") {
    return unsettled({ type: "fail", reason: claimed.credit.lastError ?? `Payout ${payout.id} needs a look before it is credited.` });
  }
  const connection = await deps.adminForShop(shop);
  if (!connection.ok) {
    await update(deps.db, claimed.credit.id, { state: failedUnlessUnsure(claimed.credit), lastError: connection.reason });
    return unsettled({ type: "fail", reason: connection.reason });
  }
  try {
    return await sendCredit(deps.db, connection.admin, claimed.credit);
  } catch (error) {
    // Reads (customer, balance) that failed changed nothing: try again later.
    if (error instanceof AdminCallError) return unsettled({ type: "retry", reason: error.message });
    throw error;
  }
}
