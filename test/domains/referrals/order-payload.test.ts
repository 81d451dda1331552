import { parseShopifyJson } from "../../../app/platform/text/lossless-json";
import { describe, expect, it } from "vitest";
import { PayloadError, readCancellation, readOrderPayload, readRefundPayload, shopAmount } from "../../../app/domains/referrals/order-payload";
import { shopifyOrder, shopifyRefund } from "../../support/orders";

/** The message readOrderPayload throws for `payload`, or undefined when it reads it. */
function problem(read: (payload: unknown) => unknown, payload: unknown): string | undefined {
  try {
    read(payload);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(PayloadError);
    return (error as PayloadError).message;
  }
}

describe("reading an order webhook's payload", () => {
  it("keeps the fields the app reads from a real-shaped order, 18- and 19-digit ids digit for digit, and nothing else", () => {
    const text = JSON.stringify(
      shopifyOrder({ id: 820982911946154508n, customerId: 9223372036854775807n, checkoutId: 1234567890123456789n, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }),
    );
    expect(text).toContain('"id":820982911946154508,');
    const raw = parseShopifyJson(text) as ReturnType<typeof shopifyOrder> & { customer: { email: string } };
    const order = readOrderPayload(raw);
    expect(order.id).toBe("820982911946154508");
    expect(order.checkout_id).toBe("1234567890123456789");
    expect(order.customer).toEqual({ id: "9223372036854775807", email: raw.customer.email, first_name: "Jon", last_name: "Snow", phone: undefined, orders_count: undefined });
    expect(order.shipping_address).toMatchObject({ address1: "123 Shipping Street", zip: "K2P 1L4" });
    expect(order.note_attributes).toEqual([{ name: "_referral_code", value: "ALICE10" }]);
    expect(order.subtotal_price_set).toEqual({ shop_money: { amount: raw.subtotal_price_set.shop_money.amount } });
    expect(order.line_items).toEqual([{ tax_lines: [{ price: "5.00", price_set: { shop_money: { amount: "5.00" } } }] }]);
    expect(order).not.toHaveProperty("shipping_lines");
    expect(order).not.toHaveProperty("refunds");
  });

  it("takes amounts given as numbers and keeps them as text", () => {
    const order = readOrderPayload({ id: 1, subtotal_price: 12.5, total_price_set: { shop_money: { amount: 20 } } });
    expect(order.subtotal_price).toBe("12.5");
    expect(shopAmount(order.total_price, order.total_price_set)).toBe("20");
  });

  it("lets every field but the id be absent or null", () => {
    const order = readOrderPayload({ id: "7", email: null, customer: null, line_items: [{ tax_lines: null }], subtotal_price_set: {} });
    expect(order).toMatchObject({ id: "7", email: null, customer: null, line_items: [{ tax_lines: null }], subtotal_price_set: {} });
    expect(order.name).toBeUndefined();
  });

  it("reads where the order was placed (POS or online), and a source that is no text as none rather than refusing the order", () => {
    expect(readOrderPayload(shopifyOrder({ pos: { locationId: 24_826_418, userId: 548_380_009 } })).source_name).toBe("pos");
    expect(readOrderPayload(shopifyOrder()).source_name).toBe("web");
    expect(readOrderPayload({ id: "7", source_name: 580111 }).source_name).toBeNull();
  });

  it("names the first field that is wrong, with its path, and what it held", () => {
    expect(problem(readOrderPayload, { name: "#1001" })).toBe("id: expected an id, received nothing");
    expect(problem(readOrderPayload, { id: "" })).toBe('id: expected an id, received string ""');
    expect(problem(readOrderPayload, { id: 1, email: 5 })).toBe("email: expected text, received number 5");
    expect(problem(readOrderPayload, { id: 1, test: "yes" })).toBe('test: expected true or false, received string "yes"');
    expect(problem(readOrderPayload, { id: 1, note_attributes: {} })).toBe("note_attributes: expected a list, received an object");
    expect(problem(readOrderPayload, { id: 1, note_attributes: [{ name: "a", value: "b" }, { value: "x" }] })).toBe(
      "note_attributes.1.name: expected text, received nothing",
    );
    expect(problem(readOrderPayload, { id: 1, note_attributes: [{ name: "a", value: [1] }] })).toBe(
      "note_attributes.0.value: expected text or a number, received a list",
    );
    expect(problem(readOrderPayload, { id: 1, line_items: [{ tax_lines: [{ price_set: { shop_money: {} } }] }] })).toBe(
      "line_items.0.tax_lines.0.price_set.shop_money.amount: expected an amount, received nothing",
    );
    expect(problem(readOrderPayload, { id: 1, customer: { id: true } })).toBe("customer.id: expected an id, received boolean true");
  });

  it("refuses a body that is not an object", () => {
    expect(problem(readOrderPayload, [])).toBe("body: expected an object, received a list");
    expect(problem(readOrderPayload, "order")).toBe('body: expected an object, received string "order"');
    expect(problem(readOrderPayload, null)).toBe("body: expected an object, received null");
  });

  it("reads a cancellation's order id and financial status, and nothing else", () => {
    expect(readCancellation({ id: 450789469, cancel_reason: "customer", financial_status: "voided" })).toEqual({ id: "450789469", financial_status: "voided" });
    expect(readCancellation({ id: 450789469, financial_status: 3 })).toEqual({ id: "450789469" });
    expect(problem(readCancellation, { cancel_reason: "customer" })).toBe("id: expected an id, received nothing");
  });
});

describe("reading a refund webhook's payload", () => {
  it("keeps the refund and order ids, each line's subtotal and tax, and the adjustments (not the transactions, in the customer's currency)", () => {
    const raw = parseShopifyJson(
      JSON.stringify(shopifyRefund(4001, ["30.00", "12.50"], 890088186047892319n, { lineTaxes: ["3.00", "0.00"], orderAdjustments: [{ kind: "shipping_refund", amount: "-5.00" }] })),
    );
    const refund = readRefundPayload(raw);
    expect(refund).toMatchObject({ id: "890088186047892319", order_id: "4001" });
    expect(refund.refund_line_items).toEqual([
      { line_item_id: "14860000000005", subtotal: "30", subtotal_set: { shop_money: { amount: "30.00" } }, total_tax: "3", total_tax_set: { shop_money: { amount: "3.00" } } },
      { line_item_id: "14860000000005", subtotal: "12.5", subtotal_set: { shop_money: { amount: "12.50" } }, total_tax: "0", total_tax_set: { shop_money: { amount: "0.00" } } },
    ]);
    expect(refund).not.toHaveProperty("transactions");
    expect(refund.order_adjustments).toEqual([
      { kind: "shipping_refund", amount: "-5.00", amount_set: { shop_money: { amount: "-5.00" } }, tax_amount: "0.00", tax_amount_set: { shop_money: { amount: "0.00" } } },
    ]);
  });

  it("refuses an id that has lost digits already (a JSON.parse of a long id)", () => {
    // What JSON.parse makes of 890088186047892319: a number that has lost its last digits.
    expect(problem(readRefundPayload, { id: Number("890088186047892319"), order_id: 1 })).toMatch(/^id: expected an id of at most 2\^53/);
  });

  it("names a missing order id", () => {
    expect(problem(readRefundPayload, { id: 1 })).toBe("order_id: expected an id, received nothing");
  });
});
