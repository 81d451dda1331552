import type { Prisma, PrismaClient } from "@prisma/client";
import { orderRecordIdsByEmail } from "../referrals";

type Db = PrismaClient | Prisma.TransactionClient;

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
