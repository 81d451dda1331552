import type { PrismaClient } from "@prisma/client";

/**
 * The first of an order's discount codes that is one of the app's friend's
 * offer codes, with the ambassador it was made for. The app put the code in
 * Shopify itself, so it knows the referrer without asking the service.
 */
export async function findOfferCode(db: PrismaClient, shop: string, codes: string[]): Promise<{ code: string; email: string } | null> {
  if (codes.length === 0) return null;
  const variants = [...new Set(codes.flatMap((c) => [c, c.toUpperCase(), c.toLowerCase()]))];
  const rows = await db.offerCode.findMany({
    where: { shop, code: { in: variants }, state: { in: ["added", "removing"] } },
    select: { code: true, email: true },
  });
  for (const code of codes) {
    const row = rows.find((r) => r.code.toUpperCase() === code.toUpperCase());
    if (row) return { code, email: row.email };
  }
  return null;
}
