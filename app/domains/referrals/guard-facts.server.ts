import type { PrismaClient } from "@prisma/client";
import { bindEach, plainSql, type Statement } from "../../platform/db/sql.server";
import type { SqlValue } from "../../platform/db/sql-dialect";
import type { ReferralClient } from "../../platform/referral-api";
import { emailKey } from "../../platform/text/email-key";
import { addressKey, type BuyerFacts } from "./order-event";
import type { CodeDirectory, CodeOwner, OwnerProfile } from "./code-directory.server";
import type { GuardFacts, ReferrerSide } from "./guard";
import type { GuardSettings } from "./guard-settings";

// The facts the guard compares, gathered from the shop's own order records
// and the referral service (the code owner's profile, cached).

/** How far back the guard looks at the shop's orders for its velocity rules: the day before the order (app/domains/privacy/retention.server.ts builds on it). */
export const GUARD_WINDOW_MS = 86_400_000;
const DAY_MS = GUARD_WINDOW_MS;
/** Orders that count as referred for the velocity rules. */
const REFERRED = ["recorded", "needs_review", "reversed"];
/** REFERRED as the velocity indexes' WHERE says it (migration 20261129202125_velocity_indexes_referred_only): SQLite uses a partial index only for a query that has the same term. */
const REFERRED_SQL = `"status" IN (${REFERRED.map((s) => `'${s}'`).join(", ")})`;

export interface GuardInput {
  db: PrismaClient;
  client: ReferralClient;
  codes: CodeDirectory;
  shop: string;
  orderId: string;
  /** When this order was placed: the velocity rules count the referred orders placed in the day before it. */
  placedAt: Date;
  settings: GuardSettings;
  buyer: { email: string; customerId?: string; ip?: string } & BuyerFacts;
  code: string;
  owner?: CodeOwner;
}

/**
 * Every look-up of the guard in one statement: the counts, each one index
 * range (an OR of two columns would make the database read every order of
 * the shop, or of the day), and the referrer's own orders as rows after the
 * counts' row. A rule that is off costs a constant.
 */
function guardStatement(input: GuardInput): Statement {
  const { shop, orderId, buyer, settings } = input;
  const values: Record<string, SqlValue> = {
    shop,
    orderId,
    from: new Date(input.placedAt.getTime() - DAY_MS),
    to: input.placedAt,
    limit: settings.dailyLimit,
  };
  const others = `"shop" = :shop AND "orderId" <> :orderId`;
  // The velocity rules only ask whether the limit is reached: counting stops there, so a busy IP or code costs no more than
  // the limit. Each value (an IP, each letter case of a code) is one range of a partial index of referred orders (its WHERE
  // is REFERRED_SQL), read newest first: asked for no order, or for several values at once, PostgreSQL and SQLite may walk
  // the shop's day of orders instead, thousands of rows per order in one IP's or one code's flood (and statistics
  // gathered during a burst make any plan look cheap).
  const upToLimit = (column: string, name: string, items: string[]) => {
    const ranges = bindEach(name, items, values).map(
      (value, i) =>
        `SELECT * FROM (SELECT 1 AS "one" FROM "OrderRecord" WHERE ${others} AND ${REFERRED_SQL} AND "placedAt" >= :from AND "placedAt" <= :to AND "${column}" = ${value} ORDER BY "placedAt" DESC LIMIT :limit) AS "${name}${i}"`,
    );
    return `(SELECT COUNT(*) FROM (${ranges.join(" UNION ALL ")} LIMIT :limit) AS counted)`;
  };
  const returning = settings.modes.returning_customer !== "off";
  if (buyer.customerId) values.customerId = buyer.customerId;
  const byId = returning && buyer.customerId ? `(SELECT COUNT(*) FROM "OrderRecord" WHERE ${others} AND "customerId" = :customerId)` : "0";
  const buyerKey = emailKey(buyer.email);
  if (buyerKey) values.emailKey = buyerKey;
  const byEmail = returning && buyerKey
    ? `(SELECT COUNT(*) FROM "OrderRecord" WHERE ${others} AND "emailKey" = :emailKey${
        // Orders the first count has already counted are left out.
        buyer.customerId ? ` AND ("customerId" IS NULL OR "customerId" <> :customerId)` : ""
      })`
    : "0";
  const fromIp = settings.modes.velocity_ip !== "off" && buyer.ip ? upToLimit("browserIp", "ip", [buyer.ip]) : "0";
  const codes = [...new Set([input.code, input.code.toUpperCase(), input.code.toLowerCase()])];
  const byCode = settings.modes.velocity_code !== "off";
  const withShortCode = byCode ? upToLimit("shortCode", "short", codes) : "0";
  const withCoupon = byCode ? upToLimit("couponCode", "coupon", codes) : "0";
  const counts = `SELECT 'counts' AS "row", ${byId} AS "byId", ${byEmail} AS "byEmail", ${fromIp} AS "fromIp", ${withShortCode} AS "withShortCode", ${withCoupon} AS "withCoupon", NULL AS "customerId", NULL AS "browserIp"`;
  const ownerKey = emailKey(input.owner?.email);
  if (!ownerKey) return { sql: counts, values };
  values.ownerKey = ownerKey;
  const own = `SELECT 'own' AS "row", 0, 0, 0, 0, 0, "customerId", "browserIp" FROM "OrderRecord" WHERE ${others} AND "emailKey" = :ownerKey LIMIT ${OWN_ORDERS_READ}`;
  return { sql: `${counts} UNION ALL SELECT * FROM (${own}) AS own`, values };
}

/** The referrer's own orders read for their customer ids and IPs: enough to know them, however many they placed. */
const OWN_ORDERS_READ = 200;

type GuardRow = { row: "counts" | "own"; byId: unknown; byEmail: unknown; fromIp: unknown; withShortCode: unknown; withCoupon: unknown; customerId: string | null; browserIp: string | null };

function referrerSide(owner: CodeOwner, profile: OwnerProfile | null, own: GuardRow[]): ReferrerSide {
  const customerIds = [owner.uid, profile?.uid, ...own.map((o) => o.customerId)].filter((v): v is string => Boolean(v));
  const address = profile ? addressKey({ address1: profile.street, zip: profile.zip }) : undefined;
  return {
    email: owner.email,
    customerIds: [...new Set(customerIds)],
    addresses: address ? [address] : [],
    phones: profile?.phone ? [profile.phone] : [],
    ips: [...new Set(own.map((o) => o.browserIp).filter((v): v is string => Boolean(v)))],
  };
}

export async function gatherGuardFacts(input: GuardInput): Promise<GuardFacts> {
  const { buyer, settings } = input;
  const wantsProfile = settings.modes.self_address !== "off" || settings.modes.self_customer !== "off";
  const [rows, profile] = await Promise.all([
    plainSql(input.db).rows<GuardRow>(guardStatement(input)),
    input.owner && wantsProfile ? input.codes.ownerProfile(input.client, input.shop, input.owner.email) : null,
  ]);
  const counts = rows.find((row) => row.row === "counts")!;
  const referrer = input.owner ? referrerSide(input.owner, profile, rows.filter((row) => row.row === "own")) : undefined;
  const earlier = Number(counts.byId) + Number(counts.byEmail);
  const withCode = Math.min(settings.dailyLimit, Number(counts.withShortCode) + Number(counts.withCoupon));
  return {
    buyer: {
      email: buyer.email,
      customerId: buyer.customerId,
      address: buyer.address,
      phone: buyer.phone,
      ip: buyer.ip,
      earlierOrders: Math.max(earlier, (buyer.ordersCount ?? 1) - 1),
    },
    referrer,
    referredFromIpToday: Number(counts.fromIp),
    referredWithCodeToday: withCode,
  };
}
