import { randomUUID } from "node:crypto";
import { plainSql, timeOf, type Statement } from "../../platform/db/sql.server";
import { emailKey } from "../../platform/text/email-key";
import type { CampaignResults } from "./order-records.server";
import { customerKeys, type FirstReferral } from "./repeat-purchase";

// The app's record of who first referred a customer in a campaign
// (ReferredCustomer), read by the order's job and written when an order is
// credited, first writer wins.

type Db = Parameters<typeof plainSql>[0];

/**
 * The customer's first referral in each of `campaigns`, by either key;
 * another order's (the order itself, credited on an earlier attempt, is not
 * a later purchase).
 */
export async function firstReferrals(
  db: Db,
  shop: string,
  buyer: { customerId?: string | null; email?: string | null },
  campaigns: readonly string[],
  orderId: string,
): Promise<Map<string, FirstReferral>> {
  const keys = customerKeys(buyer.customerId, buyer.email);
  const found = new Map<string, FirstReferral>();
  if (keys.length === 0 || campaigns.length === 0) return found;
  const rows = await plainSql(db).rows<{ campaignUid: string; referrerEmail: string | null; referredAt: unknown; orderId: string }>({
    sql: `SELECT "campaignUid", "referrerEmail", "referredAt", "orderId" FROM "ReferredCustomer"
      WHERE "shop" = :shop AND "customerKey" IN (:key0, :key1) AND "orderId" <> :orderId`,
    values: { shop, key0: keys[0]!, key1: keys[1] ?? keys[0]!, orderId },
  });
  for (const row of rows) {
    if (!campaigns.includes(row.campaignUid)) continue;
    const referral = { referrerEmail: row.referrerEmail, referredAt: timeOf(row.referredAt)!, orderId: row.orderId };
    const before = found.get(row.campaignUid);
    if (!before || referral.referredAt < before.referredAt) found.set(row.campaignUid, referral);
  }
  return found;
}

/** How many of the customer's renewals each campaign recorded already, this order left out (for a "first N renewals" policy). */
export async function renewalsSent(db: Db, shop: string, buyer: { customerId?: string | null; email?: string | null }, orderId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const key = emailKey(buyer.email);
  if (!buyer.customerId && !key) return counts;
  const rows = await plainSql(db).rows<{ results: string | null }>({
    sql: `SELECT "results" FROM "OrderRecord"
      WHERE "shop" = :shop AND "repeatKind" = 'renewal' AND "orderId" <> :orderId AND ("customerId" = :customerId OR "emailKey" = :emailKey)`,
    values: { shop, orderId, customerId: buyer.customerId ?? null, emailKey: key },
  });
  for (const row of rows) {
    let results: CampaignResults = {};
    try {
      results = JSON.parse(row.results ?? "{}") as CampaignResults;
    } catch {
      continue;
    }
    for (const [uid, result] of Object.entries(results)) if (result.state === "recorded") counts.set(uid, (counts.get(uid) ?? 0) + 1);
  }
  return counts;
}

/**
 * The customer recorded as referred in each campaign the order was credited
 * in (a repeat purchase's campaigns left out): one row per key, a customer
 * already recorded keeps their first referrer.
 */
export function referredCustomerStatements(
  shop: string,
  orderId: string,
  buyer: { customerId?: string | null; email?: string | null },
  credited: readonly { campaignUid: string; referrerEmail: string | null | undefined }[],
  referredAt: Date,
): Statement[] {
  const keys = customerKeys(buyer.customerId, buyer.email);
  return credited.flatMap(({ campaignUid, referrerEmail }) =>
    keys.map((customerKey) => ({
      sql: `INSERT INTO "ReferredCustomer" ("id", "shop", "customerKey", "campaignUid", "referrerEmail", "orderId", "referredAt")
        VALUES (:id, :shop, :customerKey, :campaignUid, :referrerEmail, :orderId, :referredAt) ON CONFLICT DO NOTHING`,
      values: { id: `rc${randomUUID().replace(/-/g, "")}`, shop, customerKey, campaignUid, referrerEmail: referrerEmail ?? null, orderId, referredAt },
    })),
  );
}
