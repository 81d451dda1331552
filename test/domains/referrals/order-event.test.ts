import { describe, expect, it } from "vitest";
import { findDiscountCodes, orderRevenue, orderSignals, readOrderEvent } from "../../../app/domains/referrals/order-event";
import { leadingLink } from "../../../app/domains/referrals/referral-decision";
import { readOrderPayload } from "../../../app/domains/referrals/order-payload";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "../../../app/domains/referrals/pipeline-settings";
import { sampleCheckoutToken, shopifyOrder, type OrderOptions } from "../../support/orders";

const order = (options: OrderOptions = {}) => readOrderPayload(shopifyOrder(options));
const settings = (overrides: Partial<Record<keyof typeof PIPELINE_DEFAULTS, string>> = {}) =>
  readPipelineSettings({ ...PIPELINE_DEFAULTS, campaignUids: "1001", ...overrides });

/** The link code an order arrived with: the cart's, else the landing page's (no web pixel signal here). */
const findShortCode = (payload: ReturnType<typeof order>, names: string[]) => {
  const link = leadingLink(orderSignals(payload, names));
  return link ? { code: link.code, source: link.source } : { source: null };
};

describe("the link code", () => {
  it("comes first from the cart attribute the storefront embed writes", () => {
    const found = findShortCode(
      order({ noteAttributes: [{ name: "_referral_code", value: " ALICE10 " }], landingSite: "/?mbsy=BOB10" }),
      ["mbsy"],
    );
    expect(found).toEqual({ code: "ALICE10", source: "cart_attribute" });
  });

  it("then from the landing page's query, under the configured names in order", () => {
    expect(findShortCode(order({ landingSite: "/products/hoodie?utm_source=x&mbsy=bOb10" }), ["mbsy"])).toEqual({
      code: "bOb10",
      source: "landing_page",
    });
    expect(findShortCode(order({ landingSite: "/?ref=CAROL10&mbsy=BOB10" }), ["ref", "mbsy"]).code).toBe("CAROL10");
    expect(findShortCode(order({ landingSite: "https://shop.example/?mbsy=X1" }), ["mbsy"]).code).toBe("X1");
  });

  it("matches the landing page's parameter names whatever their case, and keeps the value's case", () => {
    expect(findShortCode(order({ landingSite: "/?MBSY=Alice10" }), ["mbsy"]).code).toBe("Alice10");
    expect(findShortCode(order({ landingSite: "/?Mbsy=BOB10" }), ["MBSY"]).code).toBe("BOB10");
    expect(findShortCode(order({ landingSite: "/?REF=CAROL10&mbsy=BOB10" }), ["ref", "mbsy"]).code).toBe("CAROL10");
  });

  it("is absent when blank, unparseable or missing", () => {
    expect(findShortCode(order({ noteAttributes: [{ name: "_referral_code", value: "  " }] }), ["mbsy"]).code).toBeUndefined();
    expect(findShortCode(order({ landingSite: "/?mbsy=" }), ["mbsy"]).code).toBeUndefined();
    expect(findShortCode(order({ landingSite: null }), ["mbsy"])).toEqual({ source: null });
    expect(findShortCode(order({ landingSite: "http://[bad" }), ["mbsy"]).code).toBeUndefined();
  });
});

describe("discount codes", () => {
  it("are every non-blank code in Shopify's order, each once whatever its case", () => {
    expect(findDiscountCodes(order({ discountCodes: ["", "FREESHIP", "ALICE-15", "freeship"] }))).toEqual(["FREESHIP", "ALICE-15"]);
    expect(findDiscountCodes(order({ discountCodes: [] }))).toEqual([]);
  });
});

describe("revenue", () => {
  it("defaults to the subtotal after discounts, without shipping and taxes", () => {
    expect(orderRevenue(order({ subtotal: "90.00", total: "104.95" }), "subtotal_after_discounts")).toBe("90.00");
  });

  it("takes line-item taxes out when prices include tax", () => {
    expect(orderRevenue(order({ subtotal: "94.50", taxesIncluded: true, lineTax: "4.50" }), "subtotal_after_discounts")).toBe("90.00");
  });

  it("offers the subtotal before discounts and the total", () => {
    expect(orderRevenue(order({ lineItemsTotal: "100.00" }), "subtotal_before_discounts")).toBe("100.00");
    expect(orderRevenue(order({ total: "104.95", taxesIncluded: true }), "total")).toBe("104.95");
  });

  it("stays exact with amounts floats cannot hold", () => {
    expect(orderRevenue(order({ subtotal: "0.30", taxesIncluded: true, lineTax: "0.10" }), "subtotal_after_discounts")).toBe("0.20");
  });
});

describe("readOrderEvent", () => {
  it("builds the event/record parameters and keeps every signal of a referred order, for its job to decide", () => {
    const result = readOrderEvent(
      order({ id: 5001, name: "#1042", customerId: 7210000000017, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }], discountCodes: ["ALICE-15"] }),
      settings(),
    );
    expect(result).toEqual({
      kind: "record",
      event: {
        campaignUids: ["1001"],
        // Written for the previous release's workers, which require the key (test/domains/referrals/previous-release-jobs.test.ts).
        codeSource: null,
        signals: { cartAttribute: "ALICE10", discountCodes: ["ALICE-15"] },
        buyer: { address: "123 shipping street|k2p 1l4", phone: "555-555-0199" },
        checkoutToken: sampleCheckoutToken(5001),
        params: {
          email: "jon@example.com",
          revenue: "90.00",
          transactionUid: "5001",
          ipAddress: "203.0.113.7",
          uid: "7210000000017",
          firstName: "Jon",
          lastName: "Snow",
          eventData1: "#1042",
          isApproved: undefined,
        },
      },
    });
  });

  it("sends the link's campaign alone when the shop tracks it, else every tracked campaign", () => {
    const withCampaign = (value: string) =>
      order({ noteAttributes: [{ name: "_referral_code", value: "ALICE10" }, { name: "_referral_campaign", value }] });
    const tracked = settings({ campaignUids: "1001,1003" });
    expect(readOrderEvent(withCampaign("1003"), tracked).event?.campaignUids).toEqual(["1003"]);
    expect(readOrderEvent(withCampaign("9999"), tracked).event?.campaignUids).toEqual(["1001", "1003"]);
  });

  it("falls back to the customer's email and then skips an order with none", () => {
    const viaCustomer = readOrderEvent(order({ email: null, customerEmail: "c@example.com", discountCodes: ["ALICE-15"] }), settings());
    expect(viaCustomer.event?.params.email).toBe("c@example.com");
    const none = readOrderEvent(order({ email: null, customerEmail: null, customerId: null, discountCodes: ["ALICE-15"] }), settings());
    expect(none).toMatchObject({ kind: "skip", reason: expect.stringMatching(/no customer email and no customer/) });
  });

  it("records a POS sale whose customer has no email under an address made from their customer id, on a domain no mail reaches", () => {
    const pos = { locationId: 24_826_418, userId: 548_380_009 };
    const phoneOnly = order({ pos, email: null, customerEmail: null, customerId: 7_210_000_000_999, customerPhone: "+15555550123", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    const reading = readOrderEvent(phoneOnly, settings());
    expect(reading.kind).toBe("record");
    expect(reading.event?.params).toMatchObject({ email: "shopify-customer-7210000000999@no-email.invalid", uid: "7210000000999" });
    expect(reading.event?.signals.cartAttribute).toBe("ALICE10");
  });

  it("skips only an anonymous POS sale (no email, no customer), saying so and what staff can do", () => {
    const pos = { locationId: 24_826_418, userId: 548_380_009 };
    const anonymous = readOrderEvent(order({ pos, email: null, customerEmail: null, customerId: null, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), settings());
    expect(anonymous).toMatchObject({ kind: "skip", reason: expect.stringMatching(/^Anonymous POS sale: .*add the customer at the counter/) });
    // With an email on the order, the same sale is recorded under it.
    expect(readOrderEvent(order({ pos, customerId: null, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), settings()).event?.params.email).toBe("jon@example.com");
  });

  it("marks orders without a code not referred unless the shop sends all orders, or waiting while a pixel signal may come", () => {
    expect(readOrderEvent(order(), settings())).toMatchObject({ kind: "not_referred", reason: "No referral link code or discount code on the order" });
    expect(readOrderEvent(order(), settings({ scope: "all_orders" })).kind).toBe("record");
    expect(readOrderEvent(order(), settings(), { signalMayCome: true })).toMatchObject({ kind: "awaiting_signal", reason: expect.stringMatching(/web pixel/) });
  });

  it("records an order with no code of its own that the intake found the web pixel's signal for, keeping the signal", () => {
    const reading = readOrderEvent(order({ landingSite: "/?mbsy=BOB10" }), settings(), { pixel: { code: "ALICE10", campaign: null }, signalMayCome: true });
    expect(reading.kind).toBe("record");
    expect(reading.event?.signals).toEqual({ landingPage: "BOB10", discountCodes: [], pixel: { code: "ALICE10", campaign: null } });
  });

  it("skips test orders unless the shop sends them, marked as test", () => {
    const test = order({ test: true, discountCodes: ["ALICE-15"] });
    expect(readOrderEvent(test, settings())).toMatchObject({ kind: "skip", reason: expect.stringMatching(/Test order/) });
    const sent = readOrderEvent(test, settings({ testOrders: "send" }));
    expect(sent.kind).toBe("record");
    expect(sent.event?.params).toMatchObject({ sandbox: true, eventData2: "test order" });
  });

  it("applies the shop's approval rule", () => {
    const referred = order({ discountCodes: ["ALICE-15"] });
    expect(readOrderEvent(referred, settings({ approval: "pending" })).event?.params.isApproved).toBe(false);
    expect(readOrderEvent(referred, settings({ approval: "approved" })).event?.params.isApproved).toBe(true);
    expect(readOrderEvent(referred, settings({ approval: "campaign" })).event?.params.isApproved).toBeUndefined();
  });

  it("keeps the order when no campaign is chosen yet (the job resolves campaigns when it runs)", () => {
    const result = readOrderEvent(order({ discountCodes: ["ALICE-15"] }), settings({ campaignUids: "" }));
    expect(result).toMatchObject({ kind: "record", event: { campaignUids: [] } });
  });

  it("reads unknown stored settings as their defaults", () => {
    expect(readPipelineSettings({ ...PIPELINE_DEFAULTS, trigger: "weird", codeParams: " ref , mbsy " })).toMatchObject({
      trigger: "orders_paid",
      codeParams: ["ref", "mbsy"],
    });
  });
});
