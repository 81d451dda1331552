import { queueFlowTriggerIfOn } from "../flow-triggers";
import { payoutStoreCredit } from "../flow-triggers";
import type { PayoutCredit, PrismaClient } from "@prisma/client";
import { isUniqueViolation } from "../../platform/queue/enqueue.server";
import { addMoney, compareMoney, toMinorUnit, tryParseMoney } from "../../platform/referral-api/money";
import { emailKey } from "../../platform/text/email-key";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { AdminCallError, type AdminGraphql } from "../../platform/shopify-admin/admin-graphql.server";
import { held, ignored, processed, unsettled, type EventResult } from "./event-result";
import { afterMove, moveCredit, UNSETTLED_STATES, type CreditChange, type PayoutState } from "./payout-credits.server";
import { CLOCK_SKEW_MS, didCreditLand, type Landed } from "./payout-landed";
import { PAYOUT_PERIOD_DAYS, readPayoutSettings, settlePayoutCurrency } from "./payout-settings.server";
import { creditStoreCredit, findAmbassadorCustomer, shopCurrencyOf, storeCreditsSince } from "./shopify-customers.server";
import { serviceCustomerGid } from "../../platform/shopify-admin/customer-identity";
import { payoutDataSchema } from "./webhook-envelope";

export interface PayoutDeps {
  db: PrismaClient;
  adminForShop: AdminForShop;
  now(): Date;
  /** The job's JobMeta.externalWrite: the credit call runs inside it, so a stopping worker does not give the job back mid-call. */
  externalWrite<T>(write: () => Promise<T>): Promise<T>;
  /** How long after a credit call began it may still land (PAYOUT_SETTLE_MS unless a test shortens it). */
  payoutSettleMs?: number;
}

/**
 * How long after a credit call began it may still land. A runner that finds
 * a younger attempt without its answer (lost, or its worker stopped, killed
 * or stalled mid-call) waits this out before it reads the customer's
 * account, so that it never judges, and sends again, while the first call
 * may still arrive at Shopify. Longer than any call the app waits for.
 */
export const PAYOUT_SETTLE_MS = 2 * 60_000;

const STORE_PLATFORM = "storeplatform";

type Claim = { credit: PayoutCredit } | { result: EventResult };

/**
 * One PayoutCredit row per (shop, payout id), inserted before Shopify is
 * called: a second delivery, a replay under another event_id or a retry all
 * find the row and never credit twice.
 */
async function claim(db: PrismaClient, shop: string, serviceEventId: string, payout: { id: string; email: string; amount: string; namedCustomerId: string | null }): Promise<Claim> {
  const { id: payoutId, email, amount } = payout;
  try {
    // The customer the service names by id (its uid) is kept as the one to credit; checkAndSend checks it still has the email.
    return { credit: await db.payoutCredit.create({ data: { shop, payoutId, serviceEventId, email, amount, customerId: payout.namedCustomerId } }) };
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

/** One run of a payout's job, with the shop's Admin access. */
interface Run {
  deps: PayoutDeps;
  shop: string;
  admin: AdminGraphql;
}

const nameOf = (credit: PayoutCredit) => `Payout ${credit.payoutId}`;

/** Something else moved the credit first (another runner, the merchant): the job looks again in a moment. */
function lookAgain(credit: PayoutCredit): EventResult {
  return unsettled({ type: "wait", reason: `${nameOf(credit)} changed while the app was acting on it; looking at it again.`, afterMs: 1_000 });
}

async function hold(run: Run, credit: PayoutCredit, state: PayoutState, reason: string, change: CreditChange = {}): Promise<EventResult> {
  if (!(await moveCredit(run.deps.db, credit, { ...change, state, lastError: reason }))) return lookAgain(credit);
  return held(reason);
}

/** A credit of an unsettled attempt is recorded as landed (its transaction found in the account, or named in Shopify's answer). */
async function markCredited(run: Run, credit: PayoutCredit, transactionId: string): Promise<boolean> {
  try {
    // Landed and its Flow trigger queued together: once per payout however often the credit is judged.
    return await run.deps.db.$transaction(async (tx) => {
      if (!(await moveCredit(tx, credit, { state: "credited", transactionId, lastError: null }))) return false;
      const { customerId, email, amount, currency, payoutId } = credit;
      if (customerId && currency) {
        await queueFlowTriggerIfOn(tx, run.shop, () => payoutStoreCredit({ customerId, email, amount, currency, payoutId }), `payout:${payoutId}`);
      }
      return true;
    });
  } catch (error) {
    // The transaction is another payout's already: this one did not land with it.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Shopify answered that the credit landed. When the row was moved meanwhile
 * (a runner that took the job over judged the attempt after PAYOUT_SETTLE_MS
 * and may have sent again), a second credit may exist: the merchant looks.
 */
async function answeredCredited(run: Run, sending: PayoutCredit, transactionId: string, detail: string): Promise<EventResult> {
  if (await markCredited(run, sending, transactionId)) return processed(detail);
  const current = await run.deps.db.payoutCredit.findUnique({ where: { id: sending.id } });
  if (!current || (current.state === "credited" && current.transactionId === transactionId)) return processed(detail);
  const reason =
    `Shopify credited ${nameOf(sending)} (${sending.amount} ${sending.currency}, transaction ${transactionId}) after the app had stopped waiting for its answer, ` +
    `so ${sending.email} may have been credited twice. Look at their store credit in Shopify and take back what is too much, then close this payout.`;
  return hold(run, current, "needs_review", reason);
}

/** Sends the credit, as the next attempt of `credit` (claimed, failed, or an attempt found not to have landed). */
function send(run: Run, credit: PayoutCredit, customerId: string, currency: string): Promise<EventResult> {
  const { db } = run.deps;
  return run.deps.externalWrite(async () => {
    const change: CreditChange = { state: "sending", attempts: credit.attempts + 1, attemptStartedAt: run.deps.now(), customerId, currency, lastError: null };
    if (!(await moveCredit(db, credit, change))) return lookAgain(credit);
    const sending = afterMove(credit, change);
    let transactionId: string;
    try {
      transactionId = await creditStoreCredit(run.admin, { customerId, amount: toMinorUnit(credit.amount, currency), currency });
    } catch (error) {
      if (!(error instanceof AdminCallError)) throw error;
      // Refused: surely nothing credited. Answer lost: it stays "sending", and the next attempt reads the account first.
      await moveCredit(
        db,
        sending,
        error.applied === false ? { state: "failed", lastError: error.message } : { lastError: `${error.message}. The app looks at the customer's store credit before sending again.` },
      );
      return unsettled({ type: "retry", reason: error.message });
    }
    return answeredCredited(run, sending, transactionId, `${nameOf(credit)}: ${toMinorUnit(credit.amount, currency)} ${currency} store credit given to ${credit.email}.`);
  });
}

/** The checks before a credit is sent: the program's currency is the shop's, the amount within the ceiling and the ambassador's total within the period's (or approved), the customer is the ambassador. */
async function checkAndSend(run: Run, credit: PayoutCredit): Promise<EventResult> {
  const { db } = run.deps;
  const settings = await readPayoutSettings(db, run.shop);
  const shopCurrency = await shopCurrencyOf(run.admin);
  const currency = settings.currency ?? (await settlePayoutCurrency(db, run.shop, shopCurrency));
  const money = `${credit.amount} ${currency}`;
  if (currency !== shopCurrency) {
    const reason =
      `${nameOf(credit)} is ${money}: the program pays in ${currency}, and this store sells in ${shopCurrency}. The app does not convert money, so it credited nothing. ` +
      `If the program really pays in ${shopCurrency}, change the program's currency and choose Check again; if not, pay it another way and close it.`;
    return hold(run, credit, "wrong_currency", reason, { currency });
  }
  // What Shopify is sent: the amount in the currency's minor unit.
  const amount = toMinorUnit(credit.amount, currency);
  if (compareMoney(amount, "0") <= 0) {
    const reason = `${nameOf(credit)} is ${money}, which is nothing once rounded to what ${currency} can pay (${amount}); the app credited nothing. Pay it another way if it is owed.`;
    if (!(await moveCredit(db, credit, { state: "failed", lastError: reason, currency }))) return lookAgain(credit);
    return unsettled({ type: "fail", reason });
  }
  if (!credit.approvedAt && compareMoney(amount, settings.ceiling) > 0) {
    const reason = `${nameOf(credit)} is ${money}, above your ceiling of ${settings.ceiling} ${currency}. Choose Approve and credit to credit it to ${credit.email}, or close it.`;
    return hold(run, credit, "awaiting_approval", reason, { currency });
  }
  if (!credit.approvedAt) {
    const earlier = await creditedInPeriod(run, credit);
    const total = addMoney(earlier, amount);
    if (compareMoney(total, settings.periodTotal) > 0) {
      const reason =
        `${nameOf(credit)} is ${money}; with the ${earlier} ${currency} credited to ${credit.email} in the last ${PAYOUT_PERIOD_DAYS} days it comes to ${total} ${currency}, ` +
        `above your total of ${settings.periodTotal} ${currency} per ambassador. Choose Approve and credit to credit it, or close it.`;
      return hold(run, credit, "awaiting_approval", reason, { currency });
    }
  }
  const customer = await findAmbassadorCustomer(run.admin, credit.email, credit.customerId);
  if (!customer.ok && customer.why === "unverified") {
    const reason =
      `${nameOf(credit)} (${money}) is for ${credit.email}, and the Shopify customer with that email has not verified it, so it may not be the ambassador: anyone can open an account with an email. ` +
      `Once the customer has verified their email (or you have checked it is theirs and verified it in Shopify), choose Check again; otherwise close it.`;
    return hold(run, credit, "unverified_email", reason, { currency });
  }
  if (!customer.ok) {
    const reason = `No Shopify customer has the email ${credit.email}; create the customer, then retry.`;
    if (!(await moveCredit(db, credit, { state: "failed", lastError: reason }))) return lookAgain(credit);
    return unsettled({ type: "fail", reason });
  }
  return send(run, credit, customer.customer.id, currency);
}

/** What the app credited (or may have: an attempt without its answer) to the payout's ambassador in the period, other payouts only. */
async function creditedInPeriod(run: Run, credit: PayoutCredit): Promise<string> {
  const since = new Date(run.deps.now().getTime() - PAYOUT_PERIOD_DAYS * 86_400_000);
  const others = await run.deps.db.payoutCredit.findMany({
    where: { shop: run.shop, email: credit.email, id: { not: credit.id }, state: { in: ["credited", ...UNSETTLED_STATES] }, createdAt: { gte: since } },
    select: { amount: true },
  });
  return others.reduce<string>((sum, row) => addMoney(sum, row.amount), "0.00");
}

function unclearReason(credit: PayoutCredit, currency: string, why: Extract<Landed, { landed: "unclear" }>["why"]): string {
  const lost = `Shopify's answer to the store credit of ${nameOf(credit)} (${credit.amount} ${currency}) was lost`;
  const look = `Look at ${credit.email}'s store credit in Shopify: if this payout's credit is there, close the payout here; if it is not, credit it there and close it here.`;
  switch (why) {
    case "several":
      return `${lost}, and their store credit has received more credits of that amount since than the app sent, so it cannot tell whether this one landed. ${look}`;
    case "rival":
      return `${lost}, and other payouts of that amount to them are waiting for their answers too, with fewer credits of it than payouts, so the app cannot tell which landed. ${look}`;
    case "unreadable":
      return `${lost}, and the app could not read all of ${credit.email}'s store credit since, so it cannot tell whether it landed. ${look}`;
  }
}

/**
 * A credit sent whose answer the app has not had: did it land? Decided from
 * the account's credits since the attempt began, less those known to be
 * other payouts', never from the balance. Not landed: checked and sent
 * again. Cannot tell: the merchant decides (needs_review).
 */
async function settleAttempt(run: Run, credit: PayoutCredit): Promise<EventResult> {
  const { db } = run.deps;
  const settleMs = run.deps.payoutSettleMs ?? PAYOUT_SETTLE_MS;
  // A row of before attemptStartedAt existed: from its creation, which takes in more credits, never fewer.
  const began = credit.attemptStartedAt ?? credit.createdAt;
  const age = run.deps.now().getTime() - began.getTime();
  if (age < settleMs) {
    const reason = `The store credit of ${nameOf(credit)} was sent and Shopify's answer has not come; the app looks at ${credit.email}'s store credit in a few minutes, once the credit has had time to land.`;
    return unsettled({ type: "wait", reason, afterMs: settleMs - age });
  }
  const found = credit.customerId ? null : await findAmbassadorCustomer(run.admin, credit.email);
  const customerId = credit.customerId ?? (found?.ok ? found.customer.id : null);
  if (!customerId) {
    const reason =
      `Shopify's answer to the store credit of ${nameOf(credit)} was lost, and no Shopify customer has the email ${credit.email} now, so the app cannot see whether it landed. ` +
      `If the payout should still be paid, pay it another way and close it.`;
    return hold(run, credit, "needs_review", reason);
  }
  const currency = credit.currency ?? (await shopCurrencyOf(run.admin));
  const { credits, complete } = await storeCreditsSince(run.admin, { customerId, currency, since: new Date(began.getTime() - CLOCK_SKEW_MS) });
  const others = await db.payoutCredit.findMany({
    where: {
      shop: run.shop,
      id: { not: credit.id },
      OR: [{ transactionId: { in: credits.map((c) => c.id) } }, { customerId, currency, amount: credit.amount, state: { in: [...UNSETTLED_STATES] } }],
    },
    select: { transactionId: true, state: true },
  });
  const verdict = didCreditLand({
    amount: toMinorUnit(credit.amount, currency),
    credits,
    complete,
    matched: new Set(others.flatMap((o) => (o.transactionId ? [o.transactionId] : []))),
    rivals: others.filter((o) => UNSETTLED_STATES.includes(o.state as PayoutState)).length,
  });
  switch (verdict.landed) {
    case "yes":
      if (!(await markCredited(run, credit, verdict.transactionId))) return lookAgain(credit);
      return processed(
        `${nameOf(credit)}: Shopify's answer was lost; ${credit.email}'s store credit shows the ${credit.amount} ${currency} credit (transaction ${verdict.transactionId}), so it is confirmed and was not sent again.`,
      );
    case "no":
      return checkAndSend(run, credit);
    case "unclear":
      return hold(run, credit, "needs_review", unclearReason(credit, currency, verdict.why));
  }
}

async function advance(deps: PayoutDeps, shop: string, credit: PayoutCredit): Promise<EventResult> {
  switch (credit.state) {
    case "closed":
      return processed(`${nameOf(credit)} was closed without a store credit from the app.`);
    case "awaiting_approval":
    case "wrong_currency":
    case "unverified_email":
    case "needs_review":
      return held(credit.lastError ?? `${nameOf(credit)} waits for you on the Service events page.`);
  }
  const connection = await deps.adminForShop(shop);
  if (!connection.ok) {
    // A credit that may have landed stays "sending", to be looked at once the app has access again.
    if (credit.state !== "sending") await moveCredit(deps.db, credit, { state: "failed", lastError: connection.reason });
    return unsettled({ type: "fail", reason: connection.reason });
  }
  const run: Run = { deps, shop, admin: connection.admin };
  try {
    return credit.state === "sending" ? await settleAttempt(run, credit) : await checkAndSend(run, credit);
  } catch (error) {
    // Reads that failed changed nothing: try again later.
    if (error instanceof AdminCallError) return unsettled({ type: "retry", reason: error.message });
    throw error;
  }
}

/**
 * payout-created: a store-platform money payout becomes the ambassador's
 * Shopify store credit, once, in the program's currency when that is the
 * shop's, and above the ceiling only once the merchant approves it.
 */
export async function applyPayoutEvent(deps: PayoutDeps, shop: string, serviceEventId: string, eventData: unknown): Promise<EventResult> {
  const parsed = payoutDataSchema.safeParse(eventData);
  if (!parsed.success) return ignored("The event has no payout the app can read.");
  const { payout, contact } = parsed.data;
  if (payout.payment_method !== STORE_PLATFORM) {
    return processed(`Payout ${payout.id} is paid by ${payout.payment_method ?? "an unnamed method"}; only store platform payouts become store credit.`);
  }
  const settings = await readPayoutSettings(deps.db, shop);
  if (!settings.storeCreditPayouts) return ignored(`Payout ${payout.id}: store credit payouts are turned off.`);
  if ((payout.unit ?? "money") !== "money") return ignored(`Payout ${payout.id} is in ${payout.unit}, not money.`);
  const amount = tryParseMoney(payout.amount);
  if (!amount || compareMoney(amount, "0") <= 0) return ignored(`Payout ${payout.id} has no positive amount.`);
  const email = emailKey(contact?.email);
  if (!email) return unsettled({ type: "fail", reason: `Payout ${payout.id} names no ambassador email.` });

  const claimed = await claim(deps.db, shop, serviceEventId, { id: payout.id, email, amount, namedCustomerId: serviceCustomerGid(contact?.internal_id) });
  if ("result" in claimed) return claimed.result;
  return advance(deps, shop, claimed.credit);
}
