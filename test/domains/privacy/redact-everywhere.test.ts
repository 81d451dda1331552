import "../../entry/admin/browser-env";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { signServiceBody } from "../../../app/domains/service-events/signature.server";
import { startAppServer, testAppEnv, type AppServer } from "../../entry/admin/app-server";
import { resetDatabase } from "../../support/database";
import { testPipeline } from "../../support/pipeline";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

// customers/redact leaves the person nowhere: a person who appears in every
// table (their own order, another order's referrer, jobs, service events,
// a store credit, a data request) and in the access log is redacted through
// the served build, then the whole database and the logs are searched.

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer({ ...testAppEnv(), LOG_LEVEL: "info" });
}, 60_000);

afterAll(() => server?.stop());

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

// Typed in capitals by the buyer; Shopify's redact request names them in lower case.
const TYPED = "JÖRG.Müller_1@Example.com";
const EMAIL = "jörg.müller_1@example.com";
const CUSTOMER_ID = 7_210_000_000_123;
const NAME = ["Jörg", "Müller"];
const OTHER_EMAIL = "ana@example.com";

const deliver = (topic: string, body: unknown) => fetch(signedWebhook({ topic, body, url: `${server.origin}/webhooks/${topic}` }));

/** Every row of every table the app has, as text. */
async function wholeDatabase(): Promise<string> {
  const sqlite = process.env.DATABASE_URL!.startsWith("file:");
  const tables = sqlite
    ? await prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    : await prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema()`);
  const dumps: string[] = [];
  for (const { name } of tables) {
    const rows = await prisma.$queryRawUnsafe<unknown[]>(`SELECT * FROM "${name}"`);
    dumps.push(`${name}: ${JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`);
  }
  return dumps.join("\n");
}

/** Where the person is still named in `text` (email in any case, name, customer id). */
function traces(text: string): string[] {
  const folded = text.normalize("NFC").toLowerCase();
  const decoded = (() => {
    try {
      return decodeURIComponent(folded);
    } catch {
      return folded;
    }
  })();
  return [EMAIL, ...NAME.map((n) => n.toLowerCase()), String(CUSTOMER_ID)].filter((needle) => folded.includes(needle) || decoded.includes(needle));
}

describe("customers/redact", () => {
  it("leaves no trace of the person in any table or in the logs", async () => {
    // GIVEN their own order, through the real webhook (their email as they typed it)
    const own = shopifyOrder({ id: 820_982_911_946_154_601n, email: TYPED, customerEmail: TYPED, customerId: CUSTOMER_ID, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    expect((await deliver("orders/paid", own)).status).toBe(200);
    // ... another buyer's order they referred, as the worker stores it
    await prisma.orderRecord.create({
      data: {
        shop: TEST_SHOP,
        orderId: "820982911946154602",
        email: OTHER_EMAIL,
        status: "recorded",
        results: JSON.stringify({ "1001": { state: "recorded", referrer: EMAIL } }),
        explanation: JSON.stringify({ signals: [{ source: "cart_attribute", code: "JORG", outcome: `Referral code of ${TYPED}`, won: true }], winner: { code: "JORG", referrer: EMAIL }, guard: [], decision: "recorded" }),
        statusReason: `Referred by ${EMAIL}`,
      },
    });
    await prisma.job.create({ data: { shop: TEST_SHOP, kind: "order.record", key: `${TEST_SHOP}:order.record:820982911946154602`, payload: "{}", status: "failed", lastError: `The referrer ${TYPED} can't earn` } });
    // ... a service event that names them outside its contact fields, through the real route
    const { endpointId, secret } = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
    const event = JSON.stringify({
      event_id: 98_001,
      event_type: "payout-created",
      created_at: new Date().toISOString().slice(0, 19),
      event_data: { payout: { id: 12, amount: "5.00", payment_method: "paypal" }, ambassador: { email: TYPED, first_name: NAME[0], last_name: NAME[1] } },
    });
    const stored = await fetch(`${server.origin}/referral-webhooks/${endpointId}`, { method: "POST", body: event, headers: { "Content-Type": "application/json", "X-SERVICE-HMAC-SHA256": signServiceBody(secret, event) } });
    expect(stored.status).toBe(200);
    const eventRow = await prisma.serviceEvent.findFirstOrThrow({ where: { shop: TEST_SHOP } });
    // ... a store credit whose failure names them
    await prisma.payoutCredit.create({ data: { shop: TEST_SHOP, payoutId: "12", serviceEventId: eventRow.id, email: EMAIL, amount: "5.00", state: "failed", customerId: `gid://shopify/Customer/${CUSTOMER_ID}`, lastError: `No Shopify customer with the email ${TYPED}` } });
    // ... their data request, through the real webhook
    expect((await deliver("customers/data_request", { shop_id: 954_889, shop_domain: TEST_SHOP, customer: { id: CUSTOMER_ID, email: TYPED, phone: null }, orders_requested: [], data_request: { id: 9_901 } })).status).toBe(200);
    // ... and the access log: their email in an admin path, tokens and their id in query strings
    // Read to the end: the access log writes its line once the answer has been sent whole.
    await (await fetch(`${server.origin}/app/ambassadors/${encodeURIComponent(TYPED)}?id_token=eyJ.secret.token&shop=${TEST_SHOP}`)).text();
    await (await fetch(`${server.origin}/proxy/links?logged_in_customer_id=${CUSTOMER_ID}&signature=abc123`)).text();
    expect(traces(await wholeDatabase()).length).toBeGreaterThan(0);

    // WHEN Shopify asks to redact them
    const redact = await deliver("customers/redact", { shop_id: 954_889, shop_domain: TEST_SHOP, customer: { id: CUSTOMER_ID, email: EMAIL, phone: null }, orders_to_redact: [] });
    expect(redact.status).toBe(200);
    // ... and a worker runs the redaction the request queued
    await testPipeline().drain();

    // THEN nothing in the database names them, and nothing in the logs
    const database = await wholeDatabase();
    expect(traces(database), database).toEqual([]);
    // The server's output reaches this process through a pipe, a moment after the line is written: all of it first.
    await expect.poll(() => server.output()).toContain("GET /app/ambassadors/[email] ");
    await expect.poll(() => server.output()).toContain("GET /proxy/links ");
    expect(traces(server.output())).toEqual([]);
    expect(server.output()).toContain("GET /proxy/links ");
    expect(server.output()).not.toContain("id_token");
    expect(server.output()).not.toContain("abc123");
    // The other buyer's order, the credit row and the event's id stay, without them
    expect(await prisma.orderRecord.findMany({ select: { orderId: true } })).toEqual([{ orderId: "820982911946154602" }]);
    expect(await prisma.payoutCredit.count()).toBe(1);
    expect(await prisma.serviceEvent.findMany({ select: { eventId: true } })).toEqual([{ eventId: "98001" }]);
    const replay = await fetch(`${server.origin}/referral-webhooks/${endpointId}`, { method: "POST", body: event, headers: { "Content-Type": "application/json", "X-SERVICE-HMAC-SHA256": signServiceBody(secret, event) } });
    expect(replay.status).toBe(200);
    expect(await prisma.serviceEvent.count()).toBe(1);
  }, 60_000);
});
