import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKind } from "../../../app/platform/db/adapter.server";
import { bindNamed, type Statement } from "../../../app/platform/db/sql.server";
import { forgetBuyerStatement, windowBuyersStatement } from "../../../app/domains/referrals/leaked-codes.server";
import { stepsOf, type PlanNode } from "../../support/query-plans";

// The read each order credited by a coupon typed alone makes (decision 036):
// a code's buyers within the window, at most threshold + 1 of them. On a
// CouponBuyer table of many shops, codes and buyers (ANALYZEd), each
// database reads it from the (shop, code, lastUsedAt) index, in order,
// without sorting and without reading the table; PostgreSQL's EXPLAIN
// ANALYZE shows it stops at the limit however many buyers the code has.
// The web pixel's late signal deletes one order's buyer through an index
// that leads to its exact time, never reading the code's other buyers.

const url = process.env.DATABASE_URL!;
const kind = databaseKind(url);
const SHOPS = 20;
const CODES = 20;
const BUYERS = 200;
const SHOP = "shop-7.myshopify.com";
const SETTINGS = { threshold: 5, windowDays: 7 };

/** SHOPS x CODES x BUYERS buyers, their last uses spread over 60 days, written by the database itself. */
const SEED = (series: (alias: string, n: number) => string, time: string) => `INSERT INTO "CouponBuyer" ("shop", "code", "buyerKey", "lastUsedAt", "orderId")
  SELECT 'shop-' || s.i || '.myshopify.com', 'CODE' || c.i, 'buyer' || b.i, ${time}, 'o' || s.i || '-' || c.i || '-' || b.i
  FROM ${series("s", SHOPS)} CROSS JOIN ${series("c", CODES)} CROSS JOIN ${series("b", BUYERS)}`;


describe.skipIf(kind !== "sqlite")("a code's buyers within the window, on SQLite", () => {
  let file: InstanceType<typeof Database>;
  beforeAll(() => {
    file = new Database(url.slice("file:".length));
    const series = (alias: string, n: number) => `(WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < ${n - 1}) SELECT i FROM r) AS ${alias}`;
    // Times as Prisma's SQLite adapter and the app's plain SQL write them: ISO text with its offset.
    file.exec(SEED(series, `strftime('%Y-%m-%dT%H:%M:%f', 'now', '-' || (b.i * 7 % 60) || ' days') || '+00:00'`));
    file.exec("ANALYZE");
  });
  afterAll(() => file?.close());

  it("is one search of the (shop, code, lastUsedAt) index, in order, no sort", () => {
    const statement: Statement = windowBuyersStatement(SHOP, "CODE3", new Date(), SETTINGS);
    const [sql, params] = bindNamed(statement, "sqlite");
    const plan = (file.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail);
    console.log("SQLite plan:", plan);
    expect(plan).toEqual([expect.stringMatching(/^SEARCH CouponBuyer USING (COVERING )?INDEX CouponBuyer_shop_code_lastUsedAt_idx \(shop=\? AND code=\? AND lastUsedAt>\? AND lastUsedAt<\?\)$/)]);
    // Its answer: the limit, of the code's buyers within the window
    expect((file.prepare(sql).all(...params) as unknown[]).length).toBe(SETTINGS.threshold + 1);
  });

  it("deletes a late signal's buyer through the same index, by its code and time", () => {
    const [sql, params] = bindNamed(forgetBuyerStatement(SHOP, "CODE3", "o7-3-5", new Date()), "sqlite");
    const plan = (file.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail);
    expect(plan).toEqual([expect.stringMatching(/^SEARCH CouponBuyer USING INDEX CouponBuyer_shop_code_lastUsedAt_idx \(shop=\? AND code=\? AND lastUsedAt=\?\)$/)]);
  });
});

describe.skipIf(kind !== "postgresql")("a code's buyers within the window, on PostgreSQL", () => {
  let client: InstanceType<typeof pg.Client>;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: url });
    await client.connect();
    const series = (alias: string, n: number) => `generate_series(0, ${n - 1}) AS ${alias}(i)`;
    await client.query(SEED(series, `(now() AT TIME ZONE 'UTC') - (b.i * 7 % 60) * interval '1 day'`));
    await client.query(`ANALYZE "CouponBuyer"`);
  }, 60_000);
  afterAll(() => client?.end());

  it("is a limited scan of the (shop, code, lastUsedAt) index, no sort, stopping at threshold + 1 rows", async () => {
    const [sql, params] = bindNamed(windowBuyersStatement(SHOP, "CODE3", new Date(), SETTINGS), "postgresql");
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    const nodes = stepsOf(rows[0]!["QUERY PLAN"][0].Plan);
    console.log("PostgreSQL plan:", nodes.map((n) => `${n["Node Type"]}${n["Index Name"] ? ` using ${n["Index Name"]}` : ""} (${n["Actual Rows"]} rows)`));
    expect(nodes.map((n) => n["Node Type"])).toEqual(["Limit", expect.stringMatching(/^Index (Only )?Scan$/)]);
    expect(nodes[1]).toMatchObject({ "Index Name": "CouponBuyer_shop_code_lastUsedAt_idx", "Actual Rows": SETTINGS.threshold + 1 });
  });

  it("deletes a late signal's buyer through an index of its time", async () => {
    const [sql, params] = bindNamed(forgetBuyerStatement(SHOP, "CODE3", "o7-3-5", new Date()), "postgresql");
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const nodes = stepsOf(rows[0]!["QUERY PLAN"][0].Plan);
    expect(nodes.map((n) => n["Node Type"])).toEqual(["ModifyTable", "Index Scan"]);
    // Either index that leads to the order's exact time: few rows ever share it, of any shop.
    expect(nodes[1]).toMatchObject({ "Index Name": expect.stringMatching(/^CouponBuyer_(shop_code_)?lastUsedAt_idx$/), "Index Cond": expect.stringContaining('"lastUsedAt" = ') });
  });
});
