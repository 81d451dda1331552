import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { gatherGuardFacts, type GuardInput } from "../../../app/domains/referrals/guard-facts.server";
import { readGuardSettings } from "../../../app/domains/referrals/guard-settings";
import { resetDatabase } from "../../support/database";
import { TEST_SHOP } from "../../support/shopify-requests";

// The guard's look-ups in the shop's own orders match an email as privacy
// requests do (OrderRecord.emailKey: trimmed, lower case in Unicode), so an
// order written in another letter case is the same person's.

beforeEach(resetDatabase);

const settings = readGuardSettings({});
const input = (overrides: Partial<GuardInput>): GuardInput => ({
  db: prisma,
  client: null as never,
  codes: null as never,
  shop: TEST_SHOP,
  orderId: "9001",
  placedAt: new Date(),
  settings: { ...settings, modes: { ...settings.modes, self_address: "off", self_customer: "off", returning_customer: "flag" } },
  buyer: { email: "Jon@Example.com" },
  code: "ALICE10",
  ...overrides,
});

async function order(orderId: string, email: string, more: { customerId?: string; browserIp?: string } = {}) {
  await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId, email, emailKey: email.trim().toLowerCase(), status: "recorded", placedAt: new Date(Date.now() - 86_400_000 * 30), ...more } });
}

describe("the guard's facts from the shop's orders", () => {
  it("counts a buyer's earlier order written in another letter case", async () => {
    await order("8001", "JON@EXAMPLE.COM");
    await order("8002", "someone@example.com");

    const facts = await gatherGuardFacts(input({}));

    expect(facts.buyer.earlierOrders).toBe(1);
  });

  it("reads the referrer's own orders in any letter case for their customer ids and IPs", async () => {
    await order("8003", "Alice@Example.com ", { customerId: "7001", browserIp: "198.51.100.7" });

    const facts = await gatherGuardFacts(input({ owner: { email: "alice@example.com", uid: null, valid: true } }));

    expect(facts.referrer).toMatchObject({ customerIds: ["7001"], ips: ["198.51.100.7"] });
  });
});
