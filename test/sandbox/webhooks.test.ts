import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestSandbox, waitFor, type Json, type TestSandbox } from "./helpers";

interface Received {
  at: number;
  raw: Buffer;
  signature: string | undefined;
  body: Json;
}

/** A webhook receiver answering with the statuses given, then 200. */
class Receiver {
  received: Received[] = [];
  statuses: number[] = [];
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      this.received.push({ at: Date.now(), raw, signature: req.headers["x-service-hmac-sha256"] as string | undefined, body: JSON.parse(raw.toString("utf8")) });
      res.statusCode = this.statuses.shift() ?? 200;
      res.end();
    });
  });

  url = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.body.event_type === type);
  }
}

const SECRET = "whsec-test";
let t: TestSandbox;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestSandbox({ timeScale: 0.001 }); // retries after 300 ms and 1.8 s
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await t.sandbox.close();
  await receiver.close();
});
beforeEach(() => {
  t.sandbox.reset();
  receiver.received = [];
  receiver.statuses = [];
});

describe("signed webhooks", () => {
  it("delivers commission-created with the envelope and a valid signature over the raw body", async () => {
    const registered = await t.control("/webhooks", "POST", { url: receiver.url, secret: SECRET, events: ["commission-created"] });
    expect(registered.status).toBe(200);

    const event = await t.call("event/record", { email: "w1@example.com", campaign_uid: "1001", short_code: "ALICE10", revenue: "50", transaction_uid: "wh-1" });
    expect(event.status).toBe(200);

    const [delivery] = await waitFor(() => (receiver.received.length > 0 ? receiver.received : undefined));
    const expected = createHmac("sha256", SECRET).update(delivery.raw).digest("base64");
    expect(delivery.signature).toBe(expected);
    expect(delivery.body).toMatchObject({
      webhook_version: 0.4,
      event_type: "commission-created",
      event_data: {
        contact: { email: "alice@example.com", internal_id: "amb-alice", id: expect.any(Number) },
        referred_contact: { email: "w1@example.com" },
        campaign: { id: 1001, name: "Friends & Family" },
        commission: { revenue: 50, amount: 5, status: "pending", transaction_id: "wh-1", approved_at: null },
      },
    });
    expect(delivery.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(Number.isInteger(delivery.body.event_id)).toBe(true);
    expect(receiver.received).toHaveLength(1); // the filter kept the other event types away
  });

  it("retries after a failed attempt (5 min x timeScale) and logs every attempt", async () => {
    receiver.statuses = [500];
    t.sandbox.registerWebhook({ url: receiver.url, secret: SECRET, events: ["commission-status-updated"] });

    await t.call("commission/update", { commission_uid: "5002", is_approved: "1" });

    const attempts = await waitFor(() => (receiver.received.length >= 2 ? receiver.received : undefined));
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(250);
    expect(attempts[1].raw.equals(attempts[0].raw)).toBe(true); // same event, same event_id
    expect(attempts[0].body.event_data.commission).toMatchObject({ id: 5002, status: "approved", amount: 8 });
    expect(attempts[0].body.event_data.commission).not.toHaveProperty("transaction_id");

    const deliveries = await waitFor(async () => {
      const list = (await t.control("/webhooks")).body.deliveries;
      return list[0]?.state === "delivered" ? list : undefined;
    });
    expect(deliveries[0].attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);
  });

  it("gives up after the 30 minute retry (x timeScale)", async () => {
    receiver.statuses = [503, 503, 503, 503];
    t.sandbox.registerWebhook({ url: receiver.url, secret: SECRET, events: ["payout-created"] });

    const payout = await t.control("/payouts", "POST", { email: "alice@example.com", amount: 5, payment_method: "storeplatform" });
    expect(payout.status).toBe(200);

    await t.sandbox.webhooksIdle();
    const [delivery] = t.sandbox.deliveries();
    expect(delivery.state).toBe("failed");
    expect(delivery.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
    expect(receiver.received[0].body.event_data).toMatchObject({
      contact: { email: "alice@example.com" },
      payout: { amount: 5, unit: "money", payment_method: "storeplatform" },
    });
    const stats = (await t.call("company/stats")).body.response.data.stats.production.payouts;
    expect(stats).toMatchObject({ paid_count: "1", paid_sum: "5.00" });
    const alice = (await t.call("ambassador/get", { email: "alice@example.com" })).body.response.data.ambassador;
    expect(alice).toMatchObject({ balance_money: "7.00", money_paid: "5.00" });
  }, 10_000);

  it("emits the contact events of a new ambassador, each with its own event_id", async () => {
    t.sandbox.registerWebhook({ url: receiver.url, secret: SECRET });

    await t.call("event/record", { email: "w2@example.com", campaign_uid: "1001", short_code: "BOB10", revenue: "10" });
    await waitFor(() => (receiver.ofType("commission-created").length > 0 ? true : undefined));
    await t.sandbox.webhooksIdle();

    const created = receiver.ofType("contact-created")[0].body.event_data.contact;
    expect(created).toMatchObject({ email: "w2@example.com", status: "enrolled", test_mode: false, source: "api:event/record" });
    expect(receiver.ofType("contact-added-to-campaign")).toHaveLength(4);
    expect(receiver.ofType("contact-added-to-segment")[0].body.event_data.segment).toEqual({
      id: 1,
      name: "Customers",
      legacy_id: "1",
      description: expect.any(String),
    });
    expect(receiver.ofType("referral-created")[0].body.event_data).toMatchObject({
      contact: { email: "bob@example.com" },
      referred_contact: { email: "w2@example.com" },
    });
    const ids = receiver.received.map((r) => r.body.event_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("counts a receiver that does not answer in time as a failed attempt", async () => {
    const hanging = createServer(() => {}); // never answers
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const slow = await startTestSandbox({ webhookTimeoutMs: 150 });
    try {
      slow.sandbox.registerWebhook({ url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`, secret: SECRET });
      await slow.call("ambassador/get", { email: "late@example.com", auto_create: "1" });

      const [delivery] = await waitFor(() => {
        const list = slow.sandbox.deliveries();
        return list[0]?.attempts.length ? list : undefined;
      });
      expect(delivery.attempts[0]).toMatchObject({ status: null, error: "no answer within 150 ms" });
      expect(delivery.state).toBe("pending"); // the retry is scheduled
      expect(delivery.next_attempt_at).not.toBeNull();
    } finally {
      await slow.sandbox.close();
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});
