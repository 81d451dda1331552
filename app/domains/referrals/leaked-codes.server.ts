import { createHmac } from "node:crypto";
import { flowTriggerStatement, referralCodeLeaked } from "../flow-triggers";
import { bindEach, plainSql, timeOf, type Statement } from "../../platform/db/sql.server";
import type { SqlValue } from "../../platform/db/sql-dialect";
import { readExplanation } from "./explanation";
import { codeWithoutLink, heldByLeak, leakHeldReason, type LeakSettings, type LeakedCode } from "./leaked-code";
import { customerKeys } from "./repeat-purchase";

// Leaked codes (decision 036): each buyer who used a referral coupon without
// a link is one CouponBuyer row (the customer id, else the guard's email key,
// as an HMAC keyed with the app's secret); the order's job writes its buyer's row, then reads at most
// threshold + 1 of the code's rows inside the window over an index, so the
// work per order is bounded however popular the code. A code with more
// buyers than the threshold gets one LeakedCode row and one Flow trigger,
// both keyed by the code.

type Db = Parameters<typeof plainSql>[0];
const DAY_MS = 24 * 60 * 60_000;

/** The buyer's key, pseudonymous: equal for the same buyer, and keyed, so that no one without the app's secret can tell whose it is by hashing a guess. */
function buyerKey(buyer: { customerId?: string | null; email?: string | null }, secret: string): string | null {
  const key = customerKeys(buyer.customerId, buyer.email)[0];
  return key ? createHmac("sha256", secret).update(`referral-bridge/coupon-buyer\n${key}`).digest("hex").slice(0, 32) : null;
}

type LeakedCodeRow = { code: string; referrerEmail: string | null; flaggedAt: unknown; buyers: number; windowDays: number; heldFrom: unknown };
const LEAKED_CODE_COLUMNS = `"code", "referrerEmail", "flaggedAt", "buyers", "windowDays", "heldFrom"`;

/** A LeakedCode row as plain SQL gives it on either database (numbers and times as the app's). */
function leakedCodeOf(row: LeakedCodeRow): LeakedCode {
  return { ...row, buyers: Number(row.buyers), windowDays: Number(row.windowDays), flaggedAt: timeOf(row.flaggedAt)!, heldFrom: timeOf(row.heldFrom)! };
}

/** The code's flag, if it is flagged (one read by the primary key). */
export async function findLeakedCode(db: Db, shop: string, code: string): Promise<LeakedCode | null> {
  const [row] = await plainSql(db).rows<LeakedCodeRow>({
    sql: `SELECT ${LEAKED_CODE_COLUMNS} FROM "LeakedCode" WHERE "shop" = :shop AND "code" = :code`,
    values: { shop, code: code.toUpperCase() },
  });
  return row ? leakedCodeOf(row) : null;
}

/** The flags of these codes (a page's rows: a few dozen codes at the most), in one read by the primary key. */
export async function findLeakedCodes(db: Db, shop: string, codes: readonly string[]): Promise<Map<string, LeakedCode>> {
  const wanted = [...new Set(codes.map((c) => c.toUpperCase()))];
  if (wanted.length === 0) return new Map();
  const values: Record<string, SqlValue> = { shop };
  const list = bindEach("code", wanted, values).join(", ");
  const rows = await plainSql(db).rows<LeakedCodeRow>({ sql: `SELECT ${LEAKED_CODE_COLUMNS} FROM "LeakedCode" WHERE "shop" = :shop AND "code" IN (${list})`, values });
  return new Map(rows.map((row) => [row.code, leakedCodeOf(row)]));
}

/** An ambassador's flagged codes (the Ambassador page). */
export async function leakedCodesOf(db: Db, shop: string, referrerEmail: string): Promise<LeakedCode[]> {
  const rows = await plainSql(db).rows<LeakedCodeRow>({
    sql: `SELECT ${LEAKED_CODE_COLUMNS} FROM "LeakedCode" WHERE "shop" = :shop AND "referrerEmail" = :email ORDER BY "flaggedAt"`,
    values: { shop, email: referrerEmail.trim().toLowerCase() },
  });
  return rows.map(leakedCodeOf);
}

/** What the buyers counted said: the code has more than the threshold within the window, from heldFrom. */
export interface Tripped {
  buyers: number;
  heldFrom: Date;
}

/**
 * Notes the order's buyer as one who used the code without a link (their
 * latest use kept), then counts the code's buyers within the window that
 * ends at the order, reading at most threshold + 1 rows. Written before it is
 * read, and at once: of two workers noting the last two buyers together, the
 * later read sees both. Null while the code stays under the threshold, or
 * the buyer is unknown.
 */
export async function noteBuyerWithoutLink(
  db: Db,
  input: { shop: string; code: string; orderId: string; placedAt: Date; buyer: { customerId?: string | null; email?: string | null }; settings: LeakSettings; secret: string },
): Promise<Tripped | null> {
  const key = buyerKey(input.buyer, input.secret);
  if (!key) return null;
  const sql = plainSql(db);
  const code = input.code.toUpperCase();
  await sql.run({
    sql: `INSERT INTO "CouponBuyer" ("shop", "code", "buyerKey", "lastUsedAt", "orderId") VALUES (:shop, :code, :key, :placedAt, :orderId)
      ON CONFLICT ("shop", "code", "buyerKey") DO UPDATE SET "lastUsedAt" = excluded."lastUsedAt", "orderId" = excluded."orderId"
      WHERE excluded."lastUsedAt" > "CouponBuyer"."lastUsedAt"`,
    values: { shop: input.shop, code, key, placedAt: input.placedAt, orderId: input.orderId },
  });
  const rows = await sql.rows<{ lastUsedAt: unknown }>(windowBuyersStatement(input.shop, code, input.placedAt, input.settings));
  if (rows.length <= input.settings.threshold) return null;
  return { buyers: rows.length, heldFrom: timeOf(rows[0]!.lastUsedAt)! };
}

/**
 * The web pixel reported a link for an order after it was recorded as
 * credited by a code typed without one: its buyer no longer counts towards
 * the code's leak. The row is the order's only while it is the buyer's
 * latest use (a buyer's later orders are repeat purchases, which note none);
 * it is found by its code and exact time. A flag already raised stays.
 */
export async function forgetBuyerWithoutLink(db: Db, record: { shop: string; orderId: string; placedAt: Date | null; explanation: string | null }): Promise<number> {
  const code = codeWithoutLink(readExplanation(record.explanation));
  if (!code || !record.placedAt) return 0;
  return plainSql(db).run(forgetBuyerStatement(record.shop, code, record.orderId, record.placedAt));
}

/** The delete of forgetBuyerWithoutLink (the query plan tests read it too). */
export function forgetBuyerStatement(shop: string, code: string, orderId: string, placedAt: Date): Statement {
  return {
    sql: `DELETE FROM "CouponBuyer" WHERE "shop" = :shop AND "code" = :code AND "lastUsedAt" = :placedAt AND "orderId" = :orderId`,
    values: { shop, code, placedAt, orderId },
  };
}

/** The code's buyers within the window ending at `placedAt`, oldest first, at most threshold + 1 (the query plan tests read it too). */
export function windowBuyersStatement(shop: string, code: string, placedAt: Date, settings: Pick<LeakSettings, "threshold" | "windowDays">): Statement {
  return {
    sql: `SELECT "lastUsedAt" FROM "CouponBuyer" WHERE "shop" = :shop AND "code" = :code AND "lastUsedAt" >= :from AND "lastUsedAt" <= :to
      ORDER BY "lastUsedAt" LIMIT :limit`,
    values: { shop, code, from: new Date(placedAt.getTime() - settings.windowDays * DAY_MS), to: placedAt, limit: settings.threshold + 1 },
  };
}

/** The code's flag and its Flow trigger (when the shop sends them), stored with the order's settle; a second flagging of the code stores neither. */
export function leakedCodeStatements(
  shop: string,
  flag: { code: string; referrerEmail: string | null | undefined; orderId: string; windowDays: number } & Tripped,
  flowOn: boolean,
  now: Date,
): Statement[] {
  const code = flag.code.toUpperCase();
  return [
    {
      sql: `INSERT INTO "LeakedCode" ("shop", "code", "referrerEmail", "flaggedAt", "buyers", "windowDays", "heldFrom", "orderId")
        VALUES (:shop, :code, :referrerEmail, :now, :buyers, :windowDays, :heldFrom, :orderId) ON CONFLICT DO NOTHING`,
      values: { shop, code, referrerEmail: flag.referrerEmail?.trim().toLowerCase() ?? null, now, buyers: flag.buyers, windowDays: flag.windowDays, heldFrom: flag.heldFrom, orderId: flag.orderId },
    },
    ...(flowOn
      ? [flowTriggerStatement(shop, referralCodeLeaked({ code, ambassadorEmail: flag.referrerEmail, buyers: flag.buyers, windowDays: flag.windowDays }), `code:${code}`, now)]
      : []),
  ];
}

/** What a list of commissions shows of a leaked code: the code, when it was flagged, and why the commission is held (null: not held). */
export interface LeakOfOrder {
  code: string;
  flaggedAt: Date;
  held: string | null;
}

/**
 * The orders, among these, that a flagged code credited without a link
 * (every one of them is badged; those from the flag's first use on are held
 * when the shop holds such commissions). One read per flagged code shown.
 */
export async function leaksOfOrders(
  db: Db,
  shop: string,
  records: readonly { orderId: string; explanation: string | null; placedAt: Date | null; createdAt: Date }[],
  hold: boolean,
): Promise<Map<string, LeakOfOrder>> {
  const codes = new Map(records.map((r) => [r.orderId, codeWithoutLink(readExplanation(r.explanation))]));
  const leaks = await findLeakedCodes(db, shop, [...codes.values()].filter((c): c is string => c !== null));
  const found = new Map<string, LeakOfOrder>();
  for (const record of records) {
    const leak = leaks.get(codes.get(record.orderId) ?? "");
    if (!leak) continue;
    const held = heldByLeak(leak, record.placedAt ?? record.createdAt, hold) ? leakHeldReason(leak) : null;
    found.set(record.orderId, { code: leak.code, flaggedAt: leak.flaggedAt, held });
  }
  return found;
}

/**
 * Why an order's commission is held for a leaked code, or null: it was
 * credited by the code typed alone, the code is flagged, the shop holds such
 * commissions, and the order was placed from the flag's first use on.
 */
export async function leakHoldOf(db: Db, shop: string, record: Parameters<typeof leaksOfOrders>[2][number], hold: boolean): Promise<string | null> {
  if (!hold) return null;
  return (await leaksOfOrders(db, shop, [record], hold)).get(record.orderId)?.held ?? null;
}
