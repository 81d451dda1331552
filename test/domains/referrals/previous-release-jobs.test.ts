import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jobRow } from "../../../app/platform/queue/job-row";
import { RECORD_ORDER_JOB, storedEventSchema } from "../../../app/domains/referrals/job-kinds";
import { ORDER_PLANNER, type OrderLookupFound } from "../../../app/domains/referrals/order-intake";
import { RawJson, type Delivery, type IntakeValue } from "../../../app/platform/intake/planner";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "../../../app/domains/referrals/pipeline-settings";
import { shopifyOrder, shopifyRefund } from "../../support/orders";

// During a rolling deploy the previous release's workers still run beside
// the new ones on one PostgreSQL, and take the order jobs the new intake
// stores. A job their schema refuses fails as "Malformed job payload", so
// every order job the intake makes must still parse under it.

// The previous release's payload schemas (commit 57b0b9a,
// app/referrals/order-jobs.ts and referral-event.ts), copied as they were.
// Do not update them to match the current code: they stand for the workers
// already deployed.
const previousParams = z.object({
  email: z.string(),
  shortCode: z.string().optional(),
  couponCode: z.string().optional(),
  revenue: z.string().optional(),
  transactionUid: z.string(),
  ipAddress: z.string().optional(),
  uid: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  eventData1: z.string().optional(),
  eventData2: z.string().optional(),
  eventData3: z.string().optional(),
  isApproved: z.boolean().optional(),
  sandbox: z.boolean().optional(),
});
const PREVIOUS_RELEASE_PAYLOADS = {
  "order.record": z.object({
    orderId: z.string(),
    event: z.object({
      campaignUids: z.array(z.string()),
      codeSource: z.enum(["cart_attribute", "landing_site"]).nullable(),
      params: previousParams,
      signals: z.object({ cartAttribute: z.string().optional(), landingPage: z.string().optional(), discountCodes: z.array(z.string()) }).optional(),
      buyer: z.object({ phone: z.string().optional(), address: z.string().optional(), ordersCount: z.number().optional() }).optional(),
      checkoutToken: z.string().optional(),
    }),
  }),
  "order.cancel": z.object({ orderId: z.string() }),
  "order.refund": z.object({ orderId: z.string(), refundId: z.string(), amount: z.string(), tax: z.string().optional() }),
};

const SHOP = "previous-release.myshopify.com";
const settings = readPipelineSettings({ ...PIPELINE_DEFAULTS, campaignUids: "1001" });

type Values = Readonly<Record<string, IntakeValue>>;

/** What the intake plans for a body as delivered (its long ids read digit for digit): the outcome, and the rows it writes. */
function plan(topic: string, payload: unknown, found?: OrderLookupFound): { outcome: string; record?: Values; job?: Values } {
  const hook: Delivery = { topic, shop: SHOP, payload: new RawJson(Buffer.from(JSON.stringify(payload))), webhookId: "w-1", triggeredAt: new Date() };
  const read = ORDER_PLANNER.read(hook);
  if ("malformed" in read) throw new Error(read.malformed);
  const planned = ORDER_PLANNER.plan(hook, read.read, settings, found ?? { signals: new Map(), referred: new Set() });
  const rows = new Map((planned.write ?? []).map((row) => [row.table, row.values]));
  return { outcome: planned.outcome, record: rows.get("OrderRecord"), job: rows.get("Job") };
}

/** The job the intake planned, as the previous release's worker would read it. */
function readByPreviousRelease(planned: ReturnType<typeof plan>) {
  expect(planned.job).toBeDefined();
  const job = planned.job as { kind: keyof typeof PREVIOUS_RELEASE_PAYLOADS; payload: string };
  return PREVIOUS_RELEASE_PAYLOADS[job.kind].safeParse(JSON.parse(job.payload));
}

describe("order jobs a worker of the previous release may take", () => {
  it("an order's recording parses, its event carrying codeSource: null", () => {
    const order = shopifyOrder({
      id: 820982911946154700n,
      noteAttributes: [{ name: "_referral_code", value: "ALICE10" }],
      landingSite: "/?mbsy=BOB20",
      discountCodes: ["FRIEND-BOB"],
    });
    const planned = plan("ORDERS_PAID", order);
    const read = readByPreviousRelease(planned);
    expect(read.error).toBeUndefined();
    expect(read.data).toMatchObject({ orderId: "820982911946154700", event: { codeSource: null } });
  });

  it("a recording queued again from an event held before the key was written parses too", () => {
    // The event of an order waiting for its web pixel signal, as an earlier build stored it: without codeSource.
    const held = plan("ORDERS_PAID", shopifyOrder({ id: 820982911946154701n, discountCodes: [] }));
    expect(held.outcome).toBe("awaiting_signal");
    const { codeSource, ...withoutKey } = JSON.parse(held.record!.heldEvent as string);
    expect(codeSource).toBeNull();
    const event = storedEventSchema.parse(withoutKey);
    const job = jobRow(RECORD_ORDER_JOB, { shop: SHOP, subject: "820982911946154701", payload: { orderId: "820982911946154701", event } });
    const read = PREVIOUS_RELEASE_PAYLOADS["order.record"].safeParse(JSON.parse(job.payload));
    expect(read.error).toBeUndefined();
    expect(read.data?.event.codeSource).toBeNull();
  });

  it("an order's recording with the web pixel's signal the intake found parses, the signal passed over (the worker reads it itself)", () => {
    const order = shopifyOrder({ id: 820982911946154703n, landingSite: "/" });
    // The stored signal as the batch's lookup reads it back.
    const found = ORDER_PLANNER.lookup!.found([{ shop: SHOP, checkoutToken: order.checkout_token, orderId: null, code: "ALICE10", campaign: null, createdAt: new Date() }]);
    const planned = plan("ORDERS_PAID", order, found);
    expect(planned).toMatchObject({ outcome: "queued", record: { shortCode: "ALICE10", codeSource: "pixel" } });
    expect(JSON.parse(planned.job!.payload as string).event.signals.pixel).toEqual({ code: "ALICE10", campaign: null });
    const read = PREVIOUS_RELEASE_PAYLOADS["order.record"].safeParse(JSON.parse(planned.job!.payload as string));
    expect(read.error).toBeUndefined();
    expect(read.data?.event.signals).toEqual({ discountCodes: [] });
  });

  it("a cancellation and a refund parse", () => {
    const cancelled = { ...shopifyOrder({ id: 820982911946154702n }), cancelled_at: "2026-11-21T09:00:00-05:00", financial_status: "voided" };
    // The cancellation now carries the order's financial status too: a key the old schema passes over.
    const cancellation = plan("ORDERS_CANCELLED", cancelled);
    expect(cancellation).toMatchObject({ job: { payload: JSON.stringify({ orderId: "820982911946154702", financialStatus: "voided" }) } });
    expect(readByPreviousRelease(cancellation).data).toEqual({ orderId: "820982911946154702" });
    const refund = shopifyRefund(820982911946154702n, ["40.00"], 890088186047892400n, { lineTaxes: ["2.00"] });
    expect(readByPreviousRelease(plan("REFUNDS_CREATE", refund)).data).toEqual({ orderId: "820982911946154702", refundId: "890088186047892400", amount: "40.00", tax: "2.00" });
  });
});
