// One bad webhook never fails its batch: generated payloads (wrong types,
// huge numbers, exponents, commas, empty strings, deep nesting, __proto__
// keys) go through the order intake in one group commit with good orders,
// as signed bodies arrive on the fast path (raw JSON bytes).
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { RawJson } from "../../../app/platform/intake/planner";
import { intakeOver, intakeStoreFor } from "../../../app/wiring/order-intake.server";
import { resetDatabase } from "../../support/database";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { plannedStore } from "../../support/kept-deliveries";

// Each webhook answered with what became of it (on SQLite it is kept, then planned: decision 022).
const store = plannedStore(intakeStoreFor(process.env.DATABASE_URL!));
const intake = intakeOver(store, createLogger({ level: "silent" }));
afterAll(() => store.close());

beforeAll(async () => {
  await resetDatabase();
  await installShop();
});
beforeEach(async () => {
  await prisma.job.deleteMany();
  await prisma.orderRecord.deleteMany();
});

const keyOf = (id: number) => `${TEST_SHOP}:order.record:${id}`;
const referred = (id: number) => shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
const delivery = (json: string, topic = "ORDERS_PAID") => ({ topic, shop: TEST_SHOP, payload: new RawJson(Buffer.from(json)), webhookId: null, triggeredAt: null });

/** A JSON value as raw text: what JSON.stringify cannot write (1e400, 20-digit integers) included. */
const rawValue: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("1e400", "-1e400", "1E+30", "99999999999999999999999.99", "123456789012345678901234567890", "-0", "0.0000000001", "NaN"),
    fc.constantFrom('"1,000.00"', '""', '" "', '"1e400"', '"-5.00"', '"12.3.4"', '"∞"', '"__proto__"', "null", "true", "[]", "{}"),
    fc.string({ maxLength: 30 }).map((s) => JSON.stringify(s)),
    fc.double().map((n) => (Number.isFinite(n) ? String(n) : "0")),
    fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
    fc.integer({ min: 1, max: 60 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
    fc.array(tie("value"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
    fc.array(fc.tuple(fc.constantFrom("__proto__", "constructor", "amount", "value", "id"), tie("value")), { maxLength: 3 }).map(
      (entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`
    ),
  ),
})).value;

/** Where in a real-shaped order a bad value goes. */
const PATHS = [
  ["id"],
  ["name"],
  ["email"],
  ["currency"],
  ["subtotal_price"],
  ["current_subtotal_price"],
  ["total_price"],
  ["subtotal_price_set", "shop_money", "amount"],
  ["total_price_set", "shop_money", "amount"],
  ["total_shipping_price_set"],
  ["customer"],
  ["customer", "id"],
  ["note_attributes"],
  ["note_attributes", 0, "value"],
  ["note_attributes", 0, "name"],
  ["line_items"],
  ["line_items", 0, "price"],
  ["line_items", 0, "quantity"],
  ["discount_codes"],
  ["test"],
  ["taxes_included"],
  ["__proto__"],
] as const;

/** The order's JSON with `raw` written at `path` (created where it is missing). */
function withValueAt(order: Record<string, unknown>, path: readonly (string | number)[], raw: string): string {
  const marker = "\u0000RAW\u0000";
  const copy = JSON.parse(JSON.stringify(order)) as Record<string, unknown>;
  if (path[0] === "__proto__") return JSON.stringify(copy).replace(/^\{/, `{"__proto__":${raw},`);
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== "object" || at[key] === null) at[key] = typeof key === "number" ? [] : {};
    at = at[key] as Record<string | number, unknown>;
  }
  at[path[path.length - 1]!] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), raw);
}

describe("a batch's good webhooks are always stored", () => {
  it("whatever values the other webhooks of the batch carry", async () => {
    let nextId = 51_000;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...PATHS), rawValue), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 4 }), async (bad, goodCount) => {
        const goodIds = Array.from({ length: goodCount }, () => nextId++);
        const badDeliveries = bad.map(([path, raw]) => delivery(withValueAt(referred(nextId++), path, raw)));
        const goodDeliveries = goodIds.map((id) => delivery(JSON.stringify(referred(id))));
        const mixed = [...badDeliveries, ...goodDeliveries].sort(() => 0.5 - Math.random());

        const results = await Promise.all(mixed.map((d) => intake.store(d)));

        // A bad webhook's order id may be an earlier run's (0, -0, 1e400 read as the same id): a repeat, not a failure.
        const allowed = (d: (typeof mixed)[number]) => ["queued", "not_referred", "awaiting_signal", "skipped", "ignored", "malformed", ...(goodDeliveries.includes(d) ? [] : ["duplicate"])];
        expect(mixed.map((d, i) => (allowed(d).includes(results[i]!.outcome) ? "ok" : results[i]!.outcome))).toEqual(mixed.map(() => "ok"));
        const stored = await prisma.job.findMany({ where: { key: { in: goodIds.map(keyOf) } }, select: { key: true } });
        expect(stored.map((j) => j.key).sort()).toEqual(goodIds.map(keyOf).sort());
      }),
      { numRuns: 40 }
    );
  }, 120_000);

  it("answers an amount past the money range as malformed, and stores the rest of its batch", async () => {
    const huge = withValueAt(referred(52_000), ["subtotal_price_set", "shop_money", "amount"], '"99999999999999999999999.99"');
    const hugeToo = withValueAt(referred(52_001), ["subtotal_price"], "1e400");
    const results = await Promise.all([delivery(huge), delivery(hugeToo), delivery(JSON.stringify(referred(52_002)))].map((d) => intake.store(d)));
    expect(results[2]).toMatchObject({ outcome: "queued" });
    expect(results.slice(0, 2).map((r) => r.outcome)).toEqual(["malformed", "malformed"]);
    expect(await prisma.job.count({ where: { key: keyOf(52_002) } })).toBe(1);
  });
});
