import type { PrismaClient } from "@prisma/client";

/** What the Service events page says of the share links on customers. */
export interface ShareLinkStatus {
  /** Customers that carry a share link the app wrote. */
  written: number;
  /** The latest reason a write did not happen (no Shopify customer, a refusal, a missing scope), or null. */
  lastProblem: string | null;
}

export async function readShareLinkStatus(db: PrismaClient, shop: string): Promise<ShareLinkStatus> {
  const [written, problem] = await Promise.all([
    db.customerShareLink.count({ where: { shop, link: { not: null } } }),
    db.customerShareLink.findFirst({ where: { shop, detail: { not: null } }, orderBy: { updatedAt: "desc" }, select: { detail: true } }),
  ]);
  return { written, lastProblem: problem?.detail ?? null };
}
