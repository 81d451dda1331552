import { describe, expect, it } from "vitest";
import { acceptDuplicate, isDuplicateTransaction, type Commission } from "../../../app/platform/referral-api";
import { failureOf } from "./support/failure";
import { useSandbox } from "./support/sandbox";

const sandbox = useSandbox();

const DUPLICATE = "A commission with this transaction_uid already exists for this campaign.";
const NOT_PENDING = "You can change state of pending commission only.";

async function commissionByTransaction(transactionUid: string): Promise<Commission[]> {
  const found: Commission[] = [];
  for await (const c of sandbox.client().iterateCommissions()) if (c.transactionId === transactionUid) found.push(c);
  return found;
}

describe("events against the sandbox", () => {
  it("event/record credits the referrer of a short code with a pending commission (campaign auto-approve off)", async () => {
    const client = sandbox.client();
    const result = await client.recordEvent({
      email: "shopper1@example.com",
      campaignUid: "1001",
      shortCode: "BOB10",
      revenue: "100.00",
      transactionUid: "order-100",
      firstName: "Shopper",
      ipAddress: "203.0.113.9",
    });
    expect(result.referringAmbassador).toMatchObject({ email: "bob@example.com", uid: "amb-bob" });
    expect(result.ambassador.email).toBe("shopper1@example.com");

    const [commission] = await commissionByTransaction("order-100");
    expect(commission).toMatchObject({
      campaignUid: "1001",
      affiliateEmail: "bob@example.com",
      revenueAmount: "100.00",
      commissionAmount: "10.00",
      status: "pending",
      isSandbox: false,
    });
    expect(commission.createdAt).toBeInstanceOf(Date);
  });

  it("a second event/record with the same transaction_uid is a duplicate_transaction, success for acceptDuplicate", async () => {
    const client = sandbox.client();
    const params = { email: "shopper2@example.com", campaignUid: 1001, shortCode: "ALICE10", revenue: 50, transactionUid: "order-dup" };
    await client.recordEvent(params);
    const error = await failureOf(client.recordEvent(params));
    expect(error).toMatchObject({ kind: "duplicate_transaction", retryable: false, errors: [DUPLICATE], operation: "event/record" });
    expect(isDuplicateTransaction(error)).toBe(true);
    expect(await acceptDuplicate(client.recordEvent(params))).toMatchObject({ duplicate: true });
    expect(await commissionByTransaction("order-dup")).toHaveLength(1);
  });

  it("a coupon code identifies the referrer, is_approved overrides auto-approve, product_id picks the campaign", async () => {
    const client = sandbox.client();
    const byCoupon = await client.recordEvent({ email: "shopper3@example.com", campaignUid: 1001, couponCode: "ALICE-15", revenue: "19.99", transactionUid: "order-coupon", isApproved: true });
    expect(byCoupon.referringAmbassador?.email).toBe("alice@example.com");
    const [approved] = await commissionByTransaction("order-coupon");
    expect(approved).toMatchObject({ status: "approved", revenueAmount: "19.99", commissionAmount: "2.00" });

    await client.recordEvent({ email: "shopper4@example.com", productId: 501, shortCode: "BOB10", revenue: 10, transactionUid: "order-product" });
    const [viaProduct] = await commissionByTransaction("order-product");
    expect(viaProduct.campaignUid).toBe("1001");
  });

  it("event/record errors: missing email, unknown campaign, unknown code", async () => {
    const client = sandbox.client();
    const missing = await failureOf(client.recordEvent({ campaignUid: 1001, shortCode: "BOB10" } as never));
    expect(missing).toMatchObject({ kind: "invalid_request", status: 400, errors: ["The following POST parameter is required: email."] });

    const campaign = await failureOf(client.recordEvent({ email: "x@example.com", campaignUid: 9999, shortCode: "BOB10" }));
    expect(campaign.kind).toBe("invalid_request");
    expect(campaign.errors).toEqual(["The campaign_uid 9999 has expired, does not exist or does not belong to the company."]);

    const code = await failureOf(client.recordEvent({ email: "x@example.com", campaignUid: 1001, shortCode: "NOSUCHCODE" }));
    expect(code.kind).toBe("invalid_request");
    expect(code.errors[0]).toContain("NOSUCHCODE");
  });

  it("event/multi_record keeps each campaign's result; the call succeeds when one campaign fails", async () => {
    const client = sandbox.client();
    const params = { email: "multi@example.com", campaignUid: ["1001", "1003", "9999"], shortCode: "ALICE10", revenue: "40.00", transactionUid: "order-multi" };
    const first = await client.recordMultiEvent(params);
    expect(first.items.map((i) => [i.campaignUid, i.ok])).toEqual([
      ["1001", true],
      ["1003", true],
      ["9999", false],
    ]);
    const ok = first.items[0];
    expect(ok.ok && ok.data.referringAmbassador?.email).toBe("alice@example.com");
    expect(ok.ok && ok.data.ambassador.email).toBe("multi@example.com");
    expect(first.items[2]).toEqual({
      campaignUid: "9999",
      ok: false,
      code: "400",
      message: "BAD REQUEST: The parameters provided were invalid.",
      errors: ["The campaign_uid 9999 has expired, does not exist or does not belong to the company."],
      duplicate: false,
    });

    const again = await client.recordMultiEvent(params);
    expect(again.items.slice(0, 2).map((i) => !i.ok && i.duplicate)).toEqual([true, true]);
    expect(again.items.slice(0, 2).map((i) => !i.ok && i.errors)).toEqual([[DUPLICATE], [DUPLICATE]]);
  });
});

describe("the commission state machine against the sandbox", () => {
  it("record → pending → approved; an approved commission cannot change again", async () => {
    const client = sandbox.client();
    const bobBefore = (await client.getAmbassador({ email: "bob@example.com" })).ambassador.balanceMoney!;
    await client.recordEvent({ email: "sm1@example.com", campaignUid: 1001, shortCode: "BOB10", revenue: "33.30", transactionUid: "order-sm1" });
    const [pending] = await commissionByTransaction("order-sm1");
    expect(pending).toMatchObject({ status: "pending", commissionAmount: "3.33" });

    const approved = await client.updateCommission({ commissionUid: pending.commissionUid, status: "approved" });
    expect(typeof approved.message).toBe("string");
    const [after] = await commissionByTransaction("order-sm1");
    expect(after.status).toBe("approved");
    const { addMoney } = await import("../../../app/platform/referral-api");
    expect((await client.getAmbassador({ email: "bob@example.com" })).ambassador.balanceMoney).toBe(addMoney(bobBefore, "3.33"));

    for (const status of ["approved", "denied"] as const) {
      const error = await failureOf(client.updateCommission({ commissionUid: pending.commissionUid, status }));
      expect(error).toMatchObject({ kind: "invalid_request", errors: [NOT_PENDING], operation: "commission/update" });
    }
  });

  it("record → pending → denied by transaction_uid and campaign_uid; a denied commission cannot change again", async () => {
    const client = sandbox.client();
    await client.recordEvent({ email: "sm2@example.com", campaignUid: 1001, shortCode: "ALICE10", revenue: "20", transactionUid: "order-sm2" });
    await client.updateCommission({ transactionUid: "order-sm2", campaignUid: "1001", status: "denied", eventData1: "refunded" });
    const [denied] = await commissionByTransaction("order-sm2");
    expect(denied).toMatchObject({ status: "denied", eventData1: "refunded" });
    const error = await failureOf(client.updateCommission({ transactionUid: "order-sm2", status: "approved" }));
    expect(error.errors).toEqual([NOT_PENDING]);
    expect((await client.listCommissions({ status: "denied" })).items.map((c) => c.transactionId)).toContain("order-sm2");
  });

  it("commission/update needs commission_uid or transaction_uid; unknown ones are not found", async () => {
    const client = sandbox.client();
    const missing = await failureOf(client.updateCommission({ status: "approved" } as never));
    expect(missing.kind).toBe("invalid_request");
    expect(missing.errors[0]).toMatch(/required: commission_uid or transaction_uid\.$/);
    expect((await failureOf(client.updateCommission({ commissionUid: "999999", status: "approved" }))).kind).toBe("not_found");
  });

  it("commission/add creates a commission; invalid campaign, missing ambassador and duplicates are refused", async () => {
    const client = sandbox.client();
    const added = await client.addCommission({ uid: "amb-alice", campaignUid: "1001", amount: "3.33", transactionUid: "manual-1", isApproved: false });
    expect(added.commissionUid).toMatch(/^\d+$/);
    const [manual] = await commissionByTransaction("manual-1");
    expect(manual).toMatchObject({ commissionUid: added.commissionUid, commissionAmount: "3.33", status: "pending", affiliateUid: "amb-alice" });

    const invalid = await failureOf(client.addCommission({ uid: "amb-alice", campaignUid: "4242", amount: 1 }));
    expect(invalid).toMatchObject({ kind: "invalid_request", errors: ["Invalid campaign_uid."] });
    const who = await failureOf(client.addCommission({ campaignUid: "1001", amount: 1 } as never));
    expect(who.errors[0]).toMatch(/required: uid or email\.$/);
    const duplicate = await failureOf(client.addCommission({ email: "alice@example.com", campaignUid: "1001", amount: 1, transactionUid: "manual-1" }));
    expect(duplicate.kind).toBe("duplicate_transaction");
  });

  it("commission/all filters and pages past 100 commissions", async () => {
    const client = sandbox.client();
    const seeded = await client.listCommissions();
    expect(seeded.items.length).toBeGreaterThan(0);
    expect(seeded.items.every((c) => c.status !== null && c.createdAt instanceof Date)).toBe(true);
    const pending = await client.listCommissions({ status: "pending" });
    expect(pending.items.every((c) => c.status === "pending")).toBe(true);

    for (let i = 0; i < 110; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          client.addCommission({ uid: "amb-bob", campaignUid: "1001", amount: "0.01", transactionUid: `bulk-${i + j}` }),
        ),
      );
    }
    const page1 = await client.listCommissions({ uid: "amb-bob" });
    expect(page1.items).toHaveLength(100);
    expect(page1.hasMore).toBe(true);
    const all: Commission[] = [];
    for await (const c of client.iterateCommissions({ uid: "amb-bob" })) all.push(c);
    expect(all.filter((c) => c.transactionId?.startsWith("bulk-"))).toHaveLength(110);
    expect(new Set(all.map((c) => c.commissionUid)).size).toBe(all.length);

    const error = await failureOf(client.listCommissions({ page: "first" } as never));
    expect(error.kind).toBe("invalid_request");
    expect(error.errors[0]).toMatch(/not numbers/);
  });
});
