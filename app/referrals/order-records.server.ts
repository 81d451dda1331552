import type { OrderRecord, Prisma, PrismaClient } from "@prisma/client";

/** What the service said for one campaign of an order. */
export interface CampaignResult {
  state: "recorded" | "not_referred" | "blocked" | "failed";
  /** The service did not know the code sent (the next code on the order is tried). */
  codeUnknown?: boolean;
  /** The service already had this transaction (a retry or duplicate). */
  duplicate?: boolean;
  referrer?: string | null;
  detail?: string;
  reversal?: "denied" | "revenue_reduced" | "needs_review" | "nothing_to_reverse";
}

export type CampaignResults = Record<string, CampaignResult>;

export const ORDER_STATUSES = ["queued", "recorded", "not_referred", "blocked", "skipped", "failed", "reversed", "needs_review"] as const;
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

export function updateOrderRecord(
  db: PrismaClient,
  shop: string,
  orderId: string,
  data: Prisma.OrderRecordUpdateInput,
): Promise<Prisma.BatchPayload> {
  return db.orderRecord.updateMany({ where: { shop, orderId }, data: data as Prisma.OrderRecordUpdateManyMutationInput });
}
