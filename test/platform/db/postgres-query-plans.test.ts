import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "../../../app/entry/admin/activity.server";
import { dailyReferrals, syncHealth } from "../../../app/entry/admin/dashboard.server";
import { createAdapter, databaseKind } from "../../../app/platform/db/adapter.server";
import { attachPlainSql, createPlainSql, type PlainSql } from "../../../app/platform/db/sql.server";
import { POSTGRES } from "../../../app/platform/db/sql-dialect";
import type { Delivery } from "../../../app/platform/intake/planner";
import { claimJobs } from "../../../app/platform/queue/claim.server";
import { gatherGuardFacts } from "../../../app/domains/referrals/guard-facts.server";
import { readGuardSettings } from "../../../app/domains/referrals/guard-settings";
import { ORDER_PLANNER, type OrderRead } from "../../../app/domains/referrals/order-intake";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "../../../app/domains/referrals/pipeline-settings";
import { notingStatements, type Sent } from "../../support/noted-sql";
import { shopifyOrder } from "../../support/orders";
import { stepsOf, type PlanNode } from "../../support/query-plans";

// PostgreSQL's plans of the statements every order and every page pays for:
// the queue's claim, the webhook's look-ups (the guard's, the web pixel
// signals'), the admin pages' lists. Each entry point runs for real on a
// database of many shops with thousands of orders and jobs each, ANALYZEd,
// where reading a table costs the planner more than its index (a test below
// drops the indexes and sees the plans turn to sequential scans); what it
// sent is planned with EXPLAIN (FORMAT JSON) and every step on OrderRecord or
// Job must come from an index. query-plans.test.ts holds SQLite's.

const url = process.env.DATABASE_URL!;
const SHOPS = Array.from({ length: 24 }, (_, i) => `shop-${String(i).padStart(2, "0")}.myshopify.com`);
const SHOP = SHOPS[7]!;
const ORDERS_PER_SHOP = 1_000;
const STATUSES = ["recorded", "recorded", "not_referred", "recorded", "failed", "skipped", "needs_review", "queued"];
const TABLES = new Set(["OrderRecord", "Job"]);


let sent: Sent[] = [];
let db: PrismaClient;
let plain: PlainSql;
let client: InstanceType<typeof pg.Client>;

/**
 * ORDERS_PER_SHOP orders of each shop, placed ten minutes apart (every eighth one
 * recorded), each with its job (the newest queued, a few paused or running, the
 * rest done) and a web pixel signal: the shape of query-plans.test.ts's, written
 * by PostgreSQL itself (generate_series), then ANALYZEd.
 */
async function seed() {
  const params = [SHOPS, ORDERS_PER_SHOP, new Date().toISOString(), STATUSES];
  const orders = `FROM unnest($1::text[]) AS sh("shop") CROSS JOIN generate_series(0, $2::int - 1) AS g(i)
    CROSS JOIN LATERAL (SELECT ($3::timestamptz AT TIME ZONE 'UTC') - g.i * interval '10 minutes' AS "placedAt") t`;
  await client.query(
    `INSERT INTO "OrderRecord" ("id", "shop", "orderId", "orderName", "email", "emailKey", "customerId", "shortCode", "couponCode", "browserIp", "status", "placedAt", "createdAt", "updatedAt", "recordedAt")
     SELECT sh."shop" || ':' || g.i, sh."shop", (5000000 + g.i)::text, '#' || (1000 + g.i), 'buyer' || (g.i % 400) || '@example.com', 'buyer' || (g.i % 400) || '@example.com',
       (7000000 + g.i % 400)::text, CASE WHEN g.i % 3 = 0 THEN 'CODE' || (g.i % 50) END, CASE WHEN g.i % 5 = 0 THEN 'SAVE' || (g.i % 20) END, '203.0.113.' || (g.i % 200),
       ($4::text[])[g.i % array_length($4::text[], 1) + 1], t."placedAt", t."placedAt", t."placedAt", CASE WHEN g.i % 8 = 0 THEN t."placedAt" END
     ${orders}`,
    params,
  );
  await client.query(
    `INSERT INTO "Job" ("id", "shop", "kind", "key", "payload", "status", "runAt", "leaseUntil", "lane", "laneAt", "createdAt", "updatedAt")
     SELECT sh."shop" || ':job:' || g.i, sh."shop", 'order.record', sh."shop" || ':order.record:' || (5000000 + g.i), '{}',
       CASE WHEN g.i < 20 THEN 'queued' WHEN g.i < 22 THEN 'paused' WHEN g.i < 24 THEN 'running' ELSE 'done' END, t."placedAt",
       CASE WHEN g.i >= 22 AND g.i < 24 THEN ($3::timestamptz AT TIME ZONE 'UTC') + interval '1 minute' END,
       sh."shop" || ':' || (5000000 + g.i), t."placedAt", t."placedAt", t."placedAt"
     ${orders}`,
    params.slice(0, 3),
  );
  await client.query(
    `INSERT INTO "PixelSignal" ("id", "shop", "checkoutToken", "orderId", "code", "createdAt")
     SELECT sh."shop" || ':signal:' || g.i, sh."shop", 'token-' || (5000000 + g.i), CASE WHEN g.i % 2 = 0 THEN (5000000 + g.i)::text END, 'CODE' || (g.i % 50), t."placedAt"
     ${orders}`,
    params.slice(0, 3),
  );
  await client.query(`ANALYZE "OrderRecord"; ANALYZE "Job"; ANALYZE "PixelSignal"`);
  const { rows } = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "OrderRecord"`);
  expect(Number(rows[0]!.n)).toBe(SHOPS.length * ORDERS_PER_SHOP);
}

/** PostgreSQL's plan of each statement `run` sent that reads OrderRecord or Job. */
async function plansOf(run: () => Promise<unknown>, on: InstanceType<typeof pg.Client> = client): Promise<{ sql: string; steps: PlanNode[] }[]> {
  sent = [];
  await run();
  return planned(sent, on);
}

async function planned(statements: Sent[], on: InstanceType<typeof pg.Client> = client, tables = /"(OrderRecord|Job)"/) {
  const reading = statements.filter((s) => tables.test(s.sql) && !/^\s*(BEGIN|COMMIT|ROLLBACK|INSERT|SAVEPOINT|RELEASE)/i.test(s.sql));
  const plans = [];
  for (const s of reading) {
    const { rows } = await on.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${s.sql}`, s.params);
    plans.push({ sql: s.sql.replace(/\s+/g, " ").trim(), steps: stepsOf(rows[0]!["QUERY PLAN"][0].Plan) });
  }
  return plans;
}

/** The steps that read a whole table of the two, and the indexes the others went through. */
function tableReads(plan: { sql: string; steps: PlanNode[] }) {
  const onTables = plan.steps.filter((step) => TABLES.has(step["Relation Name"] ?? ""));
  return {
    scans: onTables.filter((step) => step["Node Type"] === "Seq Scan").map((step) => `${step["Relation Name"]} read whole in ${plan.sql.slice(0, 200)}`),
    indexes: plan.steps.map((step) => step["Index Name"]).filter((name): name is string => Boolean(name)),
  };
}

const guardFacts = () =>
  gatherGuardFacts({
    db,
    client: null as never,
    codes: null as never,
    shop: SHOP,
    orderId: "9999999",
    placedAt: new Date(),
    settings: { ...readGuardSettings({}), modes: { ...readGuardSettings({}).modes, self_address: "off", self_customer: "off", returning_customer: "flag", velocity_ip: "flag", velocity_code: "flag" } },
    buyer: { email: "Buyer7@Example.com", customerId: "7000007", ip: "203.0.113.7" },
    code: "CODE7",
    owner: { email: "buyer8@example.com", uid: null, valid: true },
  });

/** The intake's look-up of the web pixel signals of a batch's orders, as the PostgreSQL intake sends it. */
function signalsLookup(): Sent {
  const settings = readPipelineSettings(PIPELINE_DEFAULTS);
  const batch = [1, 2, 3].map((n) => {
    const delivery: Delivery = { topic: "ORDERS_PAID", shop: SHOPS[n]!, payload: shopifyOrder({ id: 5_100_000 + n }), webhookId: null, triggeredAt: null };
    return { delivery, read: (ORDER_PLANNER.read(delivery) as { read: OrderRead }).read, settings };
  });
  const query = ORDER_PLANNER.lookup!.query(batch, POSTGRES)!;
  return { sql: query.sql, params: query.params };
}

describe.skipIf(databaseKind(url) !== "postgresql")("PostgreSQL plans the queries on orders and jobs through an index", () => {
  beforeAll(async () => {
    client = new pg.Client({ connectionString: url });
    await client.connect();
    plain = notingStatements(createPlainSql(url), "postgresql", (statement) => sent.push(statement));
    db = new PrismaClient({ adapter: createAdapter(url), log: [{ emit: "event", level: "query" }] });
    attachPlainSql(db, plain);
    (db as unknown as { $on(event: "query", listener: (e: { query: string; params: string }) => void): void }).$on("query", (e) => {
      sent.push({ sql: e.query, params: JSON.parse(e.params) as unknown[] });
    });
    await seed();
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
    await plain?.close?.();
    await client?.end();
  });

  const entryPoints: { name: string; run: () => Promise<unknown> }[] = [
    { name: "the queue's claim", run: () => claimJobs(db, { database: "postgresql", workerId: "w", leaseMs: 60_000, now: new Date(), limit: 8 }) },
    { name: "the guard's look-ups", run: guardFacts },
    { name: "the activity page", run: () => listActivity({ db }, SHOP, { page: 2 }) },
    { name: "the activity page's failed orders", run: () => listActivity({ db }, SHOP, { page: 1, status: "failed" }) },
    { name: "the overview's health", run: () => syncHealth(db, SHOP) },
    { name: "the overview's chart", run: () => dailyReferrals(db, SHOP, new Date()) },
  ];

  for (const { name, run } of entryPoints) {
    it(name, async () => {
      const plans = await plansOf(run);
      expect(plans.length).toBeGreaterThan(0);
      const reads = plans.map(tableReads);
      expect(reads.flatMap((r) => r.scans)).toEqual([]);
      // Each statement on the two tables went through one of their indexes.
      for (const [i, r] of reads.entries()) expect(r.indexes, plans[i]!.sql.slice(0, 200)).not.toEqual([]);
    });
  }

  it("the intake's look-up of the web pixel signals stored for a batch's orders", async () => {
    const [plan] = await planned([signalsLookup()], client, /"PixelSignal"/);
    // Each key of the batch is one probe of the unique index; the table is never read whole.
    const onSignals = plan!.steps.filter((step) => step["Relation Name"] === "PixelSignal");
    expect(onSignals.map((step) => step["Node Type"])).not.toContain("Seq Scan");
    expect(onSignals.length).toBeGreaterThan(0);
    expect(plan!.steps.map((step) => step["Index Name"])).toContain("PixelSignal_shop_checkoutToken_key");
  });

  it("with the indexes gone, the same rows make the planner read the tables whole: the checks above can fail", async () => {
    // What each entry point sends, gathered first: a dropped index locks its table until the rollback.
    const statements: Sent[] = [];
    for (const { run } of entryPoints) {
      sent = [];
      await run();
      statements.push(...sent);
    }
    const own = new pg.Client({ connectionString: url });
    await own.connect();
    try {
      await own.query("BEGIN");
      const { rows } = await own.query<{ name: string }>(
        `SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid IN ('"OrderRecord"'::regclass, '"Job"'::regclass) AND NOT indisprimary`,
      );
      expect(rows.length).toBeGreaterThan(3);
      for (const { name } of rows) await own.query(`DROP INDEX ${name}`);
      const plans = await planned(statements, own);
      const scans = plans.filter((plan) => tableReads(plan).scans.length > 0);
      // Every statement that went through an index above reads a table whole without them.
      expect(scans.length).toBe(plans.length);
    } finally {
      await own.query("ROLLBACK");
      await own.end();
    }
  }, 60_000);
  it("the guard's velocity counts read no more orders than they count, in one IP's flood with one code, whatever the statistics say", async () => {
    const FLOOD = "flood.myshopify.com";
    const IP = "198.51.100.9";
    const now = new Date();
    // 3,000 orders of the last hour from one IP, each with the code FLOOD: queued when the table's statistics are taken;
    // then, as a drain leaves them, the oldest 2,000 failed or skipped (their codes' owners said no) and the newest 1,000 recorded.
    try {
      await client.query(
        `INSERT INTO "OrderRecord" ("id", "shop", "orderId", "email", "emailKey", "shortCode", "browserIp", "status", "placedAt", "createdAt", "updatedAt")
         SELECT 'flood:' || g.i, $1, (8000000 + g.i)::text, 'flood' || g.i || '@example.com', 'flood' || g.i || '@example.com', 'FLOOD', $2, 'queued', t."placedAt", t."placedAt", t."placedAt"
         FROM generate_series(0, 2999) AS g(i) CROSS JOIN LATERAL (SELECT ($3::timestamptz AT TIME ZONE 'UTC') - interval '1 hour' + g.i * interval '1 second' AS "placedAt") t`,
        [FLOOD, IP, now.toISOString()],
      );
      await client.query(`ANALYZE "OrderRecord"`);
      await client.query(
        `UPDATE "OrderRecord" SET "status" = CASE WHEN "orderId"::bigint >= 8002000 THEN 'recorded' WHEN "orderId"::bigint % 2 = 0 THEN 'failed' ELSE 'skipped' END WHERE "shop" = $1`,
        [FLOOD],
      );
      const settings = readGuardSettings({});
      sent = [];
      const facts = await gatherGuardFacts({
        db,
        client: null as never,
        codes: null as never,
        shop: FLOOD,
        orderId: "8003000",
        placedAt: now,
        settings: { ...settings, modes: { ...settings.modes, self_address: "off", self_customer: "off", returning_customer: "off", velocity_ip: "flag", velocity_code: "flag" } },
        buyer: { email: "flood3000@example.com", ip: IP },
        code: "FLOOD",
      });
      expect(facts).toMatchObject({ referredFromIpToday: settings.dailyLimit, referredWithCodeToday: settings.dailyLimit });
      const guard = sent.find((statement) => statement.sql.includes('"fromIp"'))!;
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${guard.sql}`, guard.params);
      const onOrders = stepsOf(rows[0]!["QUERY PLAN"][0].Plan).filter((step) => step["Relation Name"] === "OrderRecord");
      const read = onOrders.reduce((sum, step) => sum + ((step["Actual Rows"] ?? 0) + (step["Rows Removed by Filter"] ?? 0)) * (step["Actual Loops"] ?? 1), 0);
      // The IP's count and each letter case of the code's: each reads the limit's newest referred orders, not the 2,000 others.
      expect(read).toBeLessThanOrEqual(3 * settings.dailyLimit + 3);
      expect(onOrders.map((step) => step["Index Name"])).toEqual(expect.arrayContaining(["OrderRecord_referred_browserIp_idx", "OrderRecord_referred_shortCode_idx"]));
    } finally {
      await client.query(`DELETE FROM "OrderRecord" WHERE "shop" = $1`, [FLOOD]);
      await client.query(`ANALYZE "OrderRecord"`);
    }
  }, 60_000);
});
