import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";
import { jobKey } from "../../platform/queue/job-row";
import { requeueJob } from "../../platform/queue/shop-jobs.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import { SERVICE_EVENT_JOB } from "./job-kinds";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { HELD_STATES, listHeldPayouts, moveCredit, type HeldPayout, type PayoutState } from "./payout-credits.server";
import { readPayoutSettings, recordPayoutCurrency } from "./payout-settings.server";

export const EVENTS_PAGE_SIZE = 25;

/** The Service events page's query: a bad page number shows the first page. */
export const eventsPageQuery = z.object({ page: z.coerce.number().int().min(1).catch(1) });

const flag = z.enum(["true", "false"]).transform((v) => v === "true");
const rowId = z.string().min(1).max(64);
/**
 * The Service events page's forms: its options (the program's currency and
 * the ceiling checked apart, see parsePayoutSettingsForm), retrying one
 * failed event, and the merchant's answer to a held payout.
 */
export const serviceEventActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("options"),
    storeCreditPayouts: flag,
    tagContacts: flag,
    /** Left out (an older page), the stored choice stays. */
    shareLinkMetafield: flag.optional(),
    payoutCurrency: z.string().max(10).optional(),
    payoutCeiling: z.string().max(30).optional(),
    payoutPeriodTotal: z.string().max(30).optional(),
  }),
  z.object({ intent: z.literal("retry"), id: rowId }),
  z.object({ intent: z.enum(["approvePayout", "recheckPayout", "closePayout"]), id: rowId }),
]);

export interface ServiceEventRow {
  id: string;
  eventId: string;
  eventType: string;
  state: string;
  detail: string | null;
  /** ISO time the app received it. */
  receivedAt: string;
  processedAt: string | null;
  serviceCreatedAt: string | null;
  signedForm: string;
}

export interface ServiceEventPage {
  events: ServiceEventRow[];
  page: number;
  pageSize: number;
  total: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** One page (1-based) of the shop's service events, newest first. */
export async function listServiceEvents(
  db: PrismaClient,
  shop: string,
  options: { page?: number; pageSize?: number } = {},
): Promise<ServiceEventPage> {
  const pageSize = options.pageSize ?? EVENTS_PAGE_SIZE;
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const [total, rows] = await Promise.all([
    db.serviceEvent.count({ where: { shop } }),
    db.serviceEvent.findMany({
      where: { shop },
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return {
    events: rows.map((row) => ({
      id: row.id,
      eventId: row.eventId,
      eventType: row.eventType,
      state: row.state,
      detail: row.detail,
      receivedAt: row.receivedAt.toISOString(),
      processedAt: row.processedAt?.toISOString() ?? null,
      serviceCreatedAt: row.serviceCreatedAt,
      signedForm: row.signedForm,
    })),
    page,
    pageSize,
    total,
    hasPrevious: page > 1,
    hasNext: page * pageSize < total,
  };
}

type Tx = Prisma.TransactionClient;

/** The event is acted on again: queued, its job due now. Inside the caller's transaction; it rings the worker after. */
async function reopenEvent(tx: Tx, shop: string, serviceEventId: string, detail: string, now: Date): Promise<void> {
  await tx.serviceEvent.updateMany({ where: { id: serviceEventId, shop }, data: { state: "received", detail } });
  await requeueJob(tx, jobKey(shop, SERVICE_EVENT_JOB.name, serviceEventId), now);
}

/**
 * The merchant asks for a failed event to be acted on again. Its payout, if
 * any, is looked at again, never sent blindly: one surely not credited
 * (failed) is checked and sent; one whose credit may have landed
 * (needs_review) goes back to "sending", so the job reads the customer's
 * store credit first and sends only when the credit is not there.
 */
export async function retryServiceEvent(db: PrismaClient, shop: string, serviceEventId: string, now = new Date()): Promise<boolean> {
  const retried = await db.$transaction(async (tx) => {
    const event = await tx.serviceEvent.findFirst({ where: { id: serviceEventId, shop, state: "failed" } });
    if (!event) return false;
    const credit = await tx.payoutCredit.findFirst({ where: { shop, serviceEventId: event.id } });
    if (credit?.state === "failed") await moveCredit(tx, credit, { state: "claimed", lastError: null });
    if (credit?.state === "needs_review") await moveCredit(tx, credit, { state: "sending" });
    await reopenEvent(tx, shop, event.id, "Retry requested", now);
    return true;
  });
  if (retried) notifyJobEnqueued();
  return retried;
}

export type PayoutAnswer = "approvePayout" | "recheckPayout" | "closePayout";

/** What each answer moves a held payout from and to. */
const ANSWERS: Record<PayoutAnswer, { from: readonly PayoutState[]; detail: string }> = {
  approvePayout: { from: ["awaiting_approval"], detail: "Approved: crediting it now." },
  recheckPayout: { from: ["wrong_currency", "unverified_email", "needs_review"], detail: "Checking it again." },
  closePayout: { from: HELD_STATES, detail: "Closed by you: the app will not credit this payout." },
};

/**
 * The merchant's answer to a payout held for them. Approving credits it once
 * (the ceiling no longer holds it; the currency still must agree). Checking
 * again looks at it afresh: a currency hold against the settings as they
 * are now, an unclear credit against the customer's store credit (never
 * sent without that). Closing ends it without a credit from the app. Each is
 * a compare-and-set on the held state: a second click finds it moved and
 * changes nothing. False when the payout is not held (any more).
 */
export async function answerHeldPayout(db: PrismaClient, shop: string, answer: PayoutAnswer, creditId: string, now = new Date()): Promise<boolean> {
  const { from, detail } = ANSWERS[answer];
  const reopened = await db.$transaction(async (tx) => {
    const credit = await tx.payoutCredit.findFirst({ where: { id: creditId, shop, state: { in: [...from] } } });
    if (!credit) return null;
    if (answer === "closePayout") {
      if (!(await moveCredit(tx, credit, { state: "closed", lastError: null }))) return null;
      await tx.serviceEvent.updateMany({ where: { id: credit.serviceEventId, shop }, data: { state: "processed", detail: `Payout ${credit.payoutId}: ${detail}`, processedAt: now } });
      return false;
    }
    const next =
      answer === "approvePayout"
        ? { state: "claimed", approvedAt: now, lastError: null }
        : credit.state === "needs_review"
          ? { state: "sending" }
          : { state: "claimed", lastError: null };
    if (!(await moveCredit(tx, credit, next))) return null;
    await reopenEvent(tx, shop, credit.serviceEventId, `Payout ${credit.payoutId}: ${detail}`, now);
    return true;
  });
  if (reopened) notifyJobEnqueued();
  return reopened !== null;
}

export interface ServiceEventOptions {
  storeCreditPayouts: boolean;
  tagContacts: boolean;
  shareLinkMetafield: boolean;
}

/** The options form's own fields; the program's currency and ceiling are read with readPayoutSettings. */
export async function readServiceEventOptions(db: PrismaClient, shop: string): Promise<ServiceEventOptions> {
  const row = await db.shop.findUnique({ where: { shop }, select: { storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });
  return { storeCreditPayouts: row?.storeCreditPayouts ?? false, tagContacts: row?.tagContacts ?? false, shareLinkMetafield: row?.shareLinkMetafield ?? false };
}

/** Saves the options; a currency or ceiling not given keeps what is stored (give them checked: parsePayoutSettingsForm). */
export async function saveServiceEventOptions(
  db: PrismaClient,
  shop: string,
  options: ServiceEventOptions & { payoutCurrency?: string; payoutCeiling?: string; payoutPeriodTotal?: string },
): Promise<void> {
  await db.shop.upsert({ where: { shop }, create: { shop, ...options }, update: options });
}

export interface PayoutsPart {
  /** The program's currency; null until first needed. */
  currency: string | null;
  ceiling: string;
  periodTotal: string;
  held: HeldPayout[];
}

/**
 * The page's payouts part: the program's currency (recorded from the shop's
 * when store credit payouts are on and none is set yet), the ceiling, and
 * the payouts waiting for the merchant.
 */
export async function readPayoutsPart(db: PrismaClient, shop: string, adminForShop: AdminForShop): Promise<PayoutsPart> {
  const [settings, held] = await Promise.all([readPayoutSettings(db, shop), listHeldPayouts(db, shop)]);
  const currency = settings.currency ?? (settings.storeCreditPayouts ? await recordPayoutCurrency(db, shop, adminForShop) : null);
  return { currency, ceiling: settings.ceiling, periodTotal: settings.periodTotal, held };
}

/** The shop's events not acted on yet will not be (the app was uninstalled); the merchant can retry each. */
export async function stopReceivedEvents(db: PrismaClient | Prisma.TransactionClient, shop: string, detail: string): Promise<number> {
  const stopped = await db.serviceEvent.updateMany({ where: { shop, state: "received" }, data: { state: "failed", detail } });
  return stopped.count;
}
