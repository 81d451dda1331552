import type { Prisma, PrismaClient } from "@prisma/client";
import { z } from "zod";
import { jobKey } from "../queue/job-row";
import { requeueJob } from "../queue/shop-jobs.server";
import { notifyJobEnqueued } from "../queue/wake";
import { SERVICE_EVENT_JOB } from "./job-kinds";

export const EVENTS_PAGE_SIZE = 25;

/** The Service events page's query: a bad page number shows the first page. */
export const eventsPageQuery = z.object({ page: z.coerce.number().int().min(1).catch(1) });

const flag = z.enum(["true", "false"]).transform((v) => v === "true");
/** The Service events page's forms: its options, and retrying one failed event. */
export const serviceEventActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("options"), storeCreditPayouts: flag, tagContacts: flag }),
  z.object({ intent: z.literal("retry"), id: z.string().min(1).max(64) }),
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

/**
 * The merchant asks for a failed event to be acted on again. A payout that
 * stopped for a look is released by this request: the merchant has checked it.
 */
export async function retryServiceEvent(db: PrismaClient, shop: string, serviceEventId: string, now = new Date()): Promise<boolean> {
  const event = await db.serviceEvent.findFirst({ where: { id: serviceEventId, shop, state: "failed" } });
  if (!event) return false;
  await db.$transaction([
    db.serviceEvent.update({ where: { id: event.id }, data: { state: "received", detail: "Retry requested" } }),
    db.payoutCredit.updateMany({
      where: { shop, serviceEventId: event.id, state: { in: ["failed", "needs_review"] } },
      data: { state: "claimed", lastError: null },
    }),
  ]);
  await requeueJob(db, jobKey(shop, SERVICE_EVENT_JOB.name, event.id), now);
  notifyJobEnqueued();
  return true;
}

export interface ServiceEventOptions {
  storeCreditPayouts: boolean;
  tagContacts: boolean;
}

export async function readServiceEventOptions(db: PrismaClient, shop: string): Promise<ServiceEventOptions> {
  const row = await db.shop.findUnique({ where: { shop }, select: { storeCreditPayouts: true, tagContacts: true } });
  return { storeCreditPayouts: row?.storeCreditPayouts ?? false, tagContacts: row?.tagContacts ?? false };
}

export async function saveServiceEventOptions(db: PrismaClient, shop: string, options: ServiceEventOptions): Promise<void> {
  await db.shop.upsert({ where: { shop }, create: { shop, ...options }, update: options });
}

/** The shop's events not acted on yet will not be (the app was uninstalled); the merchant can retry each. */
export async function stopReceivedEvents(db: PrismaClient | Prisma.TransactionClient, shop: string, detail: string): Promise<number> {
  const stopped = await db.serviceEvent.updateMany({ where: { shop, state: "received" }, data: { state: "failed", detail } });
  return stopped.count;
}
