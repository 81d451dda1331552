// The commissions' one owner: decide asks the service (or takes what it
// reported), moves the order's commission state conditionally, and queues the
// decision's Flow trigger keyed by order, campaign and decision.
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { commissionDecisionKey, decide } from "../../../app/domains/commissions";
import { ReferralApiError, type ReferralClient } from "../../../app/platform/referral-api";
import { resetDatabase } from "../../support/database";
import { TEST_SHOP } from "../../support/shopify-requests";

const ORDER = "6412347889123";

/** A client whose commission/update answers as told, and which keeps what it was asked. */
function serviceAnswering(answer: () => void = () => {}) {
  const asked: unknown[] = [];
  const client = {
    async updateCommission(params: unknown) {
      asked.push(params);
      answer();
      return {};
    },
  } as unknown as ReferralClient;
  return { client, asked };
}

const record = (data: { commissionState?: string | null; campaignUids?: string | null } = {}) =>
  prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: ORDER, status: "recorded", commissionState: "pending", campaignUids: "1001,1002", ...data } });
const stateOf = async () => (await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderId: { shop: TEST_SHOP, orderId: ORDER } } })).commissionState;
const triggers = async () =>
  (await prisma.job.findMany({ where: { shop: TEST_SHOP, kind: "flow.trigger" }, orderBy: { createdAt: "asc" } })).map((j) => ({ key: j.key, ...JSON.parse(j.payload) }));

beforeEach(async () => {
  await resetDatabase();
  await prisma.shop.create({ data: { shop: TEST_SHOP, flowTriggers: true } });
});

describe("decide", () => {
  it("asks the service, moves the order's state and queues the decision's trigger, keyed by order, campaign and decision", async () => {
    await record();
    const { client, asked } = serviceAnswering();
    const result = await decide({ db: prisma, client }, { shop: TEST_SHOP, service: "ask", state: "approved", by: "merchant", commission: { commissionUid: "4711", orderId: ORDER, campaignUid: "1001" } });
    expect(result).toEqual({ ok: true, moved: true });
    expect(asked).toEqual([{ commissionUid: "4711", status: "approved" }]);
    expect(await stateOf()).toBe("approved");
    expect(await triggers()).toEqual([
      {
        key: `${TEST_SHOP}:flow.trigger:commission-approved:order:${ORDER}:campaign:1001`,
        handle: "commission-approved",
        payload: { order_id: 6412347889123, "Referrer email": "", Campaign: "1001", "Approved by": "merchant" },
      },
    ]);
  });

  it("asks by the order's transaction and campaign when it has no commission uid", async () => {
    await record();
    const { client, asked } = serviceAnswering();
    await decide({ db: prisma, client }, { shop: TEST_SHOP, service: "ask", state: "denied", by: "app", reason: "Order cancelled", commission: { orderId: ORDER, campaignUid: "1002" } });
    expect(asked).toEqual([{ transactionUid: ORDER, campaignUid: "1002", status: "denied" }]);
    expect((await triggers()).map((t) => [t.key, t.payload.Reason])).toEqual([[`${TEST_SHOP}:flow.trigger:commission-denied:order:${ORDER}:campaign:1002`, "Order cancelled"]]);
  });

  it("stores nothing and sends nothing when the service refuses: not pending, unknown, or any other answer", async () => {
    await record();
    const refusing = (errors: string[], kind: "invalid_request" | "not_found" | "server") =>
      serviceAnswering(() => {
        throw new ReferralApiError({ kind, operation: "commission/update", errors });
      }).client;
    const ask = (client: ReferralClient) =>
      decide({ db: prisma, client }, { shop: TEST_SHOP, service: "ask", state: "approved", by: "merchant", commission: { commissionUid: "4711", orderId: ORDER, campaignUid: "1001" } });
    expect(await ask(refusing(["You can change state of pending commission only."], "invalid_request"))).toMatchObject({ ok: false, refused: "not_pending" });
    expect(await ask(refusing([], "not_found"))).toMatchObject({ ok: false, refused: "not_found" });
    expect(await ask(refusing([], "server"))).toMatchObject({ ok: false, refused: "service", error: { kind: "server" } });
    expect(await stateOf()).toBe("pending");
    expect(await triggers()).toEqual([]);
  });

  it("sends a reported decision's trigger when the order's state is that decision already: another campaign's got there first", async () => {
    await record({ commissionState: "approved" });
    const result = await decide({ db: prisma }, { shop: TEST_SHOP, service: "reported", state: "approved", by: "referral service", commission: { orderId: ORDER, campaignUid: "1002", campaignName: "VIP" } });
    expect(result).toEqual({ ok: true, moved: false });
    expect((await triggers()).map((t) => [t.key, t.payload.Campaign])).toEqual([[`${TEST_SHOP}:flow.trigger:commission-approved:order:${ORDER}:campaign:1002`, "VIP"]]);
  });

  it("sends nothing when a settled state stored since the caller read is newer than its decision (readAs)", async () => {
    // GIVEN a job that read "pending", denied at the service, and meanwhile the service's event stored "approved"
    await record({ commissionState: "approved" });
    const result = await decide(
      { db: prisma },
      { shop: TEST_SHOP, service: "reported", state: "denied", by: "app", readAs: "pending", commission: { orderId: ORDER, campaignUid: "1001" } },
    );
    expect(result).toEqual({ ok: true, moved: false });
    expect(await stateOf()).toBe("approved");
    expect(await triggers()).toEqual([]);
  });

  it("moves to pending only as the service reports it, never back from a settled state, and never sends a trigger for it", async () => {
    await record({ commissionState: null });
    const pending = { shop: TEST_SHOP, service: "reported" as const, state: "pending" as const, by: "referral service" as const, commission: { orderId: ORDER, campaignUid: "1001" } };
    expect(await decide({ db: prisma }, pending)).toEqual({ ok: true, moved: true });
    await prisma.orderRecord.updateMany({ where: { shop: TEST_SHOP, orderId: ORDER }, data: { commissionState: "denied" } });
    expect(await decide({ db: prisma }, pending)).toEqual({ ok: true, moved: false });
    expect(await stateOf()).toBe("denied");
    expect(await triggers()).toEqual([]);
  });

  it("stores a reported decision with the caller's own write, in the caller's transaction: both or neither", async () => {
    await record();
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.orderRecord.updateMany({ where: { shop: TEST_SHOP, orderId: ORDER }, data: { status: "reversed" } });
        await decide({ db: tx }, { shop: TEST_SHOP, service: "reported", state: "denied", by: "app", commission: { orderId: ORDER, campaignUid: "1001" } });
        throw new Error("the caller's write failed after");
      }),
    ).rejects.toThrow("the caller's write failed after");
    expect(await stateOf()).toBe("pending");
    expect(await triggers()).toEqual([]);
  });

  it("takes the record's only campaign for a decision that names none (a page or bulk run from before the campaign was carried)", async () => {
    await record({ campaignUids: "1001" });
    const { client } = serviceAnswering();
    await decide({ db: prisma, client }, { shop: TEST_SHOP, service: "ask", state: "approved", by: "merchant", commission: { commissionUid: "4711", orderId: ORDER, campaignUid: null } });
    expect((await triggers()).map((t) => t.key)).toEqual([`${TEST_SHOP}:flow.trigger:commission-approved:order:${ORDER}:campaign:1001`]);
  });

  it("keys a commission of no order the app knows by the service's commission id", async () => {
    const { client } = serviceAnswering();
    await decide({ db: prisma, client }, { shop: TEST_SHOP, service: "ask", state: "denied", by: "merchant", commission: { commissionUid: "4799", orderId: null, campaignUid: "1001" } });
    expect(await triggers()).toEqual([
      { key: `${TEST_SHOP}:flow.trigger:commission-denied:commission:4799`, handle: "commission-denied", payload: { "Referrer email": "", Campaign: "1001", "Denied by": "merchant", Reason: "" } },
    ]);
  });

  it("queues nothing for a shop with Flow off", async () => {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: false } });
    await record();
    const { client } = serviceAnswering();
    expect(await decide({ db: prisma, client }, { shop: TEST_SHOP, service: "ask", state: "approved", by: "merchant", commission: { commissionUid: "4711", orderId: ORDER, campaignUid: "1001" } })).toEqual({ ok: true, moved: true });
    expect(await triggers()).toEqual([]);
  });
});

describe("commissionDecisionKey", () => {
  it.each([
    [{ orderId: "1", campaignUid: "1001", commissionUid: "9" }, "order:1:campaign:1001"],
    [{ orderId: "1", campaignUid: null, commissionUid: "9" }, "commission:9"],
    [{ orderId: null, campaignUid: "1001", commissionUid: "9" }, "commission:9"],
    [{ orderId: "1", campaignUid: null }, "order:1"],
  ])("keys %o as %s", (commission, key) => {
    expect(commissionDecisionKey(commission)).toBe(key);
  });
});
