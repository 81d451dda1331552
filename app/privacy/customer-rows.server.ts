import type { Prisma, PrismaClient } from "@prisma/client";
import { emailKey } from "../referrals/email-key";
import { likeCandidate } from "./person-text";

type Db = PrismaClient | Prisma.TransactionClient;

export function normaliseEmail(email: string | null | undefined): string | null {
  return emailKey(email);
}

/**
 * Ids of a shop's order records with this email in any letter case: on the
 * key the app stored (OrderRecord.emailKey), and for rows stored before the
 * key existed, on the email itself, folded by the app.
 */
export async function orderRecordIdsByEmail(db: Db, shop: string, email: string): Promise<string[]> {
  const key = emailKey(email);
  if (!key) return [];
  const keyed = await db.orderRecord.findMany({ where: { shop, emailKey: key }, select: { id: true } });
  const unkeyed = await db.$queryRaw<{ id: string; email: string }[]>`SELECT "id", "email" FROM "OrderRecord" WHERE "shop" = ${shop} AND "emailKey" IS NULL AND lower("email") LIKE ${likeCandidate(key)} ESCAPE '\\'`;
  return [...keyed.map((row) => row.id), ...unkeyed.filter((row) => emailKey(row.email) === key).map((row) => row.id)];
}

export interface CustomerKey {
  email: string | null;
  customerId: string | null;
  orderIds: string[];
}

/** The where-clause of one customer's order records: by email, Shopify customer id or the order ids named. */
export async function customerOrderRecordsWhere(db: Db, shop: string, key: CustomerKey): Promise<Prisma.OrderRecordWhereInput> {
  const byEmail = key.email ? await orderRecordIdsByEmail(db, shop, key.email) : [];
  const any: Prisma.OrderRecordWhereInput[] = [];
  if (byEmail.length > 0) any.push({ id: { in: byEmail } });
  if (key.customerId) any.push({ customerId: key.customerId });
  if (key.orderIds.length > 0) any.push({ orderId: { in: key.orderIds } });
  // No key at all must match nothing, never the whole shop.
  return { shop, OR: any.length > 0 ? any : [{ id: { in: [] } }] };
}

/**
 * Ids of the shop's service events naming this email (the `emails` column
 * holds ",a@x,b@y,"). The LIKE behind `contains` treats "_" as a wildcard,
 * so each candidate is checked for the exact address.
 */
export async function serviceEventIdsByEmail(db: Db, shop: string, email: string | null): Promise<string[]> {
  if (!email) return [];
  const candidates = await db.serviceEvent.findMany({
    where: { shop, emails: { contains: `,${email},` } },
    select: { id: true, emails: true },
  });
  return candidates.filter((event) => event.emails.split(",").includes(email)).map((event) => event.id);
}
