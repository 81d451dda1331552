import Database from "better-sqlite3";
import { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "../../../app/entry/admin/activity.server";
import { dailyReferrals, syncHealth } from "../../../app/entry/admin/dashboard.server";
import { createAdapter, databaseKind } from "../../../app/platform/db/adapter.server";
import { attachPlainSql, createPlainSql, type PlainSql } from "../../../app/platform/db/sql.server";
import type { Logger } from "../../../app/platform/logger/logger.server";
import { purgeExpired } from "../../../app/domains/privacy/purge.server";
import { SERVICE_EVENT_JOB } from "../../../app/domains/service-events/job-kinds";
import { redactCustomer } from "../../../app/domains/privacy/redact-customer.server";
import { redactShop } from "../../../app/domains/privacy/redact-shop.server";
import { claimJobs } from "../../../app/platform/queue/claim.server";
import { gatherGuardFacts } from "../../../app/domains/referrals/guard-facts.server";
import { readGuardSettings } from "../../../app/domains/referrals/guard-settings";
import { ORDER_PLANNER, type OrderRead } from "../../../app/domains/referrals/order-intake";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "../../../app/domains/referrals/pipeline-settings";
import { SQLITE } from "../../../app/platform/db/sql-dialect";
import type { Delivery } from "../../../app/platform/intake/planner";
import { notingStatements, type Sent } from "../../support/noted-sql";
import { shopifyOrder } from "../../support/orders";

// The statements on the two tables every order writes (OrderRecord, Job)
// find their rows through an index that narrows them, never by reading the
// table, a whole index, or every order of a shop to sort it (decision 021:
// each index costs every order, so each one left serves these). Each entry
// point runs for real on a database with thousands of orders over several
// shops; what it sent is planned by SQLite (EXPLAIN QUERY PLAN).

const url = process.env.DATABASE_URL!;
const SHOPS = ["a-shop.myshopify.com", "b-shop.myshopify.com", "c-shop.myshopify.com"];
const SHOP = SHOPS[1]!;
const ORDERS_PER_SHOP = 1_500;
const STATUSES = ["recorded", "recorded", "not_referred", "recorded", "failed", "skipped", "needs_review", "queued"];

let sent: Sent[] = [];
let db: PrismaClient;
let plain: PlainSql;


async function seed() {
  const now = Date.now();
  for (const shop of SHOPS) {
    const records = Array.from({ length: ORDERS_PER_SHOP }, (_, i) => {
      const placedAt = new Date(now - i * 600_000);
      return {
        shop,
        orderId: String(5_000_000 + i),
        orderName: `#${1000 + i}`,
        email: `buyer${i % 400}@example.com`,
        emailKey: `buyer${i % 400}@example.com`,
        customerId: String(7_000_000 + (i % 400)),
        shortCode: i % 3 === 0 ? `CODE${i % 50}` : null,
        couponCode: i % 5 === 0 ? `SAVE${i % 20}` : null,
        browserIp: `203.0.113.${i % 200}`,
        status: STATUSES[i % STATUSES.length]!,
        placedAt,
        createdAt: placedAt,
      };
    });
    for (let i = 0; i < records.length; i += 500) await db.orderRecord.createMany({ data: records.slice(i, i + 500) });
    const jobs = records.map((record, i) => ({
      shop,
      kind: "order.record",
      key: `${shop}:order.record:${record.orderId}`,
      payload: "{}",
      status: i < 40 ? "queued" : i < 45 ? "paused" : i < 50 ? "running" : "done",
      runAt: record.placedAt,
      leaseUntil: i >= 45 && i < 50 ? new Date(now + 60_000) : null,
      lane: `${shop}:${record.orderId}`,
      laneAt: record.placedAt,
    }));
    for (let i = 0; i < jobs.length; i += 500) await db.job.createMany({ data: jobs.slice(i, i + 500) });
  }
}

/** SQLite's plan of each statement `run` sent that reads OrderRecord or Job, one line per step. */
async function plansOf(run: () => Promise<unknown>): Promise<{ sql: string; plan: string[] }[]> {
  sent = [];
  await run();
  const file = new Database(url.slice("file:".length));
  try {
    return sent
      .filter((s) => /["`](OrderRecord|Job)["`]/.test(s.sql) && !/^\s*(BEGIN|COMMIT|ROLLBACK|INSERT)/i.test(s.sql) && !/WHERE 1=0$/.test(s.sql))
      .map((s) => ({
        sql: s.sql.replace(/\s+/g, " ").trim(),
        plan: (file.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params.map(forSqlite)) as { detail: string }[]).map((row) => row.detail),
      }));
  } finally {
    file.close();
  }
}

/** The names a statement gives the two tables (its aliases, or the table's own name). */
function namesOfTables(sql: string): Set<string> {
  const names = new Set(["Job", "OrderRecord", "main.Job", "main.OrderRecord"]);
  for (const match of sql.matchAll(/"(?:Job|OrderRecord)" (?:AS )?"?([a-z]\w*)"?/g)) names.add(match[1]!);
  return names;
}

/**
 * What is wrong with a statement's plan: a step that reads a whole table (or
 * a whole index), or one that narrows only to a shop (or to a status) and
 * then sorts everything it found, or reads the rows of each. Such a step is
 * right only as a page read in order (ORDER BY ... LIMIT, no sort), from one
 * index alone (COVERING), or where `allowed` says why.
 */
function problemsOf(statement: { sql: string; plan: string[] }, allowed: RegExp[]): string[] {
  const names = namesOfTables(statement.sql);
  const steps = statement.plan.filter((step) => names.has(/^(?:SCAN|SEARCH) (\S+)/.exec(step)?.[1] ?? ""));
  // A page of one table's rows in the order asked for, or all of them sorted first.
  const page = steps.length === 1 && /ORDER BY .* LIMIT/.test(statement.sql);
  const sorted = page && statement.plan.includes("USE TEMP B-TREE FOR ORDER BY");
  const problems: string[] = [];
  for (const step of steps) {
    if (step.startsWith("SCAN")) problems.push(`reads the whole table: ${step}`);
    else if (/\((shop|status)=\?\)$/.test(step)) {
      if (sorted) problems.push(`sorts every row it narrowed to: ${step}`);
      else if (!page && !step.includes("COVERING INDEX") && !allowed.some((pattern) => pattern.test(step))) problems.push(`reads every row of one shop or status: ${step}`);
    }
  }
  return problems.map((problem) => `${problem}\n  in ${statement.sql.slice(0, 240)}`);
}

const forSqlite = (value: unknown) => (typeof value === "boolean" ? Number(value) : value instanceof Date ? value.toISOString() : value);

describe.skipIf(databaseKind(url) !== "sqlite")("the queries on orders and jobs use an index", () => {
  beforeAll(async () => {
    plain = notingStatements(createPlainSql(url), "sqlite", (statement) => sent.push(statement));
    db = new PrismaClient({ adapter: createAdapter(url), log: [{ emit: "event", level: "query" }] });
    attachPlainSql(db, plain);
    (db as unknown as { $on(event: "query", listener: (e: { query: string; params: string }) => void): void }).$on("query", (e) => {
      sent.push({ sql: e.query, params: JSON.parse(e.params) as unknown[] });
    });
    await seed();
  }, 60_000);
  afterAll(async () => {
    await db.$disconnect();
  });

  const THE_SHOP = /\(shop=\?\)$/;
  const RUNNING = /\(status=\?\)$/;
  const entryPoints: { name: string; run: () => Promise<unknown>; allowed?: RegExp[]; only?: RegExp }[] = [
    {
      name: "the guard's look-ups",
      run: () =>
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
        }),
    },
    // The page's total counts the shop's orders (or those of one status): that one reads them all.
    { name: "the activity page", run: () => listActivity({ db }, SHOP, { page: 2 }), allowed: [THE_SHOP] },
    { name: "the activity page's failed orders", run: () => listActivity({ db }, SHOP, { page: 1, status: "failed" }), allowed: [THE_SHOP] },
    // The time of the last recorded order reads the shop's orders (an index on recordedAt would cost every order).
    { name: "the overview's health", run: () => syncHealth(db, SHOP), allowed: [THE_SHOP] },
    { name: "the overview's chart", run: () => dailyReferrals(db, SHOP, new Date()) },
    // Running jobs, of which there are no more than the workers run at once.
    { name: "the claim", run: () => claimJobs(db, { database: "sqlite", workerId: "w", leaseMs: 60_000, now: new Date(), limit: 8 }), allowed: [RUNNING] },
    // Its orders' step (every shop's, by status and time) is not one of decision 021's.
    { name: "the retention purge's finished jobs", run: () => purgeExpired(db, new Date(Date.now() + 400 * 86_400_000)), only: /["`]Job["`]/ },
    // A redaction reads every row of the shop that may name the person.
    {
      name: "a customer's redaction",
      run: () =>
        redactCustomer(db, { info() {} } as unknown as Logger, { shop: SHOP, who: { email: "buyer9@example.com", customerId: "7000009", orderIds: ["5000009"] }, webhookId: null }, { credentialsKey: Buffer.alloc(32, 7).toString("base64"), serviceEventJobKind: SERVICE_EVENT_JOB.name, appSecret: "test-api-secret" }),
      allowed: [THE_SHOP],
    },
    { name: "a shop's redaction", run: () => redactShop(db, { info() {} } as unknown as Logger, { shop: SHOPS[2]!, webhookId: null }), allowed: [THE_SHOP] },
  ];

  it("the intake's look-up of the web pixel signals stored for a batch's orders, and of their buyers recorded as referred", () => {
    const settings = readPipelineSettings(PIPELINE_DEFAULTS);
    const batch = [1, 2, 3].map((n) => {
      const delivery: Delivery = { topic: "ORDERS_PAID", shop: SHOPS[n - 1]!, payload: shopifyOrder({ id: 5_100_000 + n }), webhookId: null, triggeredAt: null };
      const read = ORDER_PLANNER.read(delivery) as { read: OrderRead };
      return { delivery, read: read.read, settings };
    });
    const query = ORDER_PLANNER.lookup!.query(batch, SQLITE)!;
    const file = new Database(url.slice("file:".length));
    try {
      const plan = (file.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as { detail: string }[]).map((row) => row.detail);
      // The keys are the outer loop, each one probe of the unique index (the buyers' keys a prefix of ReferredCustomer's).
      const steps = plan.filter((detail) => !/^COMPOUND QUERY|^LEFT-MOST SUBQUERY|^UNION ALL/.test(detail));
      expect(steps).toEqual([
        expect.stringMatching(/^SCAN k/),
        expect.stringMatching(/^SEARCH p USING INDEX PixelSignal_shop_checkoutToken_key \(shop=\? AND checkoutToken=\?\)/),
        expect.stringMatching(/^SCAN c/),
        expect.stringMatching(/^SEARCH r USING (COVERING )?INDEX ReferredCustomer_shop_customerKey_campaignUid_key \(shop=\? AND customerKey=\?\)/),
      ]);
    } finally {
      file.close();
    }
  });

  it("the guard's velocity counts read the indexes of referred orders (SQLite takes a partial index only when the query repeats its WHERE)", async () => {
    const [guard] = await plansOf(entryPoints[0]!.run);
    for (const column of ["browserIp", "shortCode", "couponCode"]) {
      expect(guard!.plan).toContainEqual(expect.stringMatching(new RegExp(`^SEARCH \\S+ USING INDEX OrderRecord_referred_${column}_idx \\(shop=\\? AND ${column}=\\?`)));
    }
  });

  for (const { name, run, allowed = [], only = /./ } of entryPoints) {
    it(name, async () => {
      const plans = (await plansOf(run)).filter((statement) => only.test(statement.sql));
      expect(plans.length).toBeGreaterThan(0);
      expect(plans.flatMap((statement) => problemsOf(statement, allowed))).toEqual([]);
    });
  }
});
