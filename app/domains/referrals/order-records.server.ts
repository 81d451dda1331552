import type { OrderRecord, Prisma, PrismaClient } from "@prisma/client";
import { likeCandidate } from "../../platform/db/like-pattern";
import type { Statement } from "../../platform/db/sql.server";
import type { SqlValue } from "../../platform/db/sql-dialect";
import { emailKey } from "../../platform/text/email-key";

/** What the service said for one campaign of an order. */
export interface CampaignResult {
  state: "recorded" | "not_referred" | "blocked" | "failed";
  /** The service did not know the code sent (the next code on the order is tried). */
  codeUnknown?: boolean;
  /** The service already had this transaction (a retry or duplicate). */
  duplicate?: boolean;
  referrer?: string | null;
  /** The referrer's commission as the service answered the recording (for the Flow trigger). */
  commission?: string | null;
  detail?: string;
  reversal?: "denied" | "revenue_reduced" | "needs_review" | "nothing_to_reverse";
  /** Sent pending until the guard has checked the coupon's referrer (see holdsCoupons); cleared once released. */
  held?: boolean;
  /** Sent without a code as a later order of a customer referred in the campaign (repeat-purchase.ts). */
  repeat?: "repeat" | "renewal";
}

export type CampaignResults = Record<string, CampaignResult>;

export const ORDER_STATUSES = ["queued", "awaiting_signal", "recorded", "not_referred", "blocked", "skipped", "failed", "reversed", "needs_review"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export function parseJsonObject<T>(text: string | null | undefined): T {
  if (!text) return {} as T;
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? (value as T) : ({} as T);
  } catch {
    return {} as T;
  }
}

export function findOrderRecord(db: PrismaClient, shop: string, orderId: string): Promise<OrderRecord | null> {
  return db.orderRecord.findUnique({ where: { shop_orderId: { shop, orderId } } });
}

/** The referrers the service named for the order, each once. */
export function orderReferrers(record: Pick<OrderRecord, "results">): string[] {
  const named = Object.values(parseJsonObject<CampaignResults>(record.results)).map((r) => r.referrer);
  return [...new Set(named.filter((email): email is string => Boolean(email)))];
}

export function updateOrderRecord(
  db: Pick<Prisma.TransactionClient, "orderRecord">,
  shop: string,
  orderId: string,
  data: Prisma.OrderRecordUpdateInput,
): Promise<Prisma.BatchPayload> {
  return db.orderRecord.updateMany({ where: { shop, orderId }, data: data as Prisma.OrderRecordUpdateManyMutationInput });
}

/** updateOrderRecord as a statement, for a job to store with its outcome: the columns named in `data`, and updatedAt as Prisma sets it. */
export function orderRecordUpdate(shop: string, orderId: string, data: Record<string, SqlValue>, now: Date): Statement {
  const columns = Object.keys(data);
  const set = [...columns.map((column) => `"${column}" = :${column}`), `"updatedAt" = :updatedAt`];
  return {
    sql: `UPDATE "OrderRecord" SET ${set.join(", ")} WHERE "shop" = :recordShop AND "orderId" = :recordOrderId`,
    values: { ...data, updatedAt: now, recordShop: shop, recordOrderId: orderId },
  };
}

/**
 * Ids of a shop's order records with this email in any letter case: on the
 * key the app stored (OrderRecord.emailKey), and for rows stored before the
 * key existed, on the email itself, folded by the app.
 */
export async function orderRecordIdsByEmail(db: PrismaClient | Prisma.TransactionClient, shop: string, email: string): Promise<string[]> {
  const key = emailKey(email);
  if (!key) return [];
  const keyed = await db.orderRecord.findMany({ where: { shop, emailKey: key }, select: { id: true } });
  const unkeyed = await db.$queryRaw<{ id: string; email: string }[]>`SELECT "id", "email" FROM "OrderRecord" WHERE "shop" = ${shop} AND "emailKey" IS NULL AND lower("email") LIKE ${likeCandidate(key)} ESCAPE '\\'`;
  return [...keyed.map((row) => row.id), ...unkeyed.filter((row) => emailKey(row.email) === key).map((row) => row.id)];
}

/** The shop's orders still waiting to be sent, or waiting for a web pixel signal, are not sent (the app was uninstalled, say). */
export async function skipQueuedOrders(db: PrismaClient | Prisma.TransactionClient, shop: string, reason: string): Promise<number> {
  const skipped = await db.orderRecord.updateMany({
    where: { shop, status: { in: ["queued", "awaiting_signal"] } },
    data: { status: "skipped", statusReason: reason, heldEvent: null },
  });
  return skipped.count;
}
