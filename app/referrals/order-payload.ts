import { z } from "zod";

// The fields of Shopify's order and refund webhook payloads that the app
// reads. Everything else is ignored; ids arrive as numbers and are kept as text.

const id = z.union([z.number(), z.string().min(1)]).transform(String);
const amount = z.union([z.string(), z.number()]).transform(String);
const moneySet = z.object({ shop_money: z.object({ amount }) }).partial().nullish();

export const orderPayloadSchema = z.object({
  id,
  name: z.string().nullish(),
  email: z.string().nullish(),
  contact_email: z.string().nullish(),
  test: z.boolean().nullish(),
  browser_ip: z.string().nullish(),
  landing_site: z.string().nullish(),
  currency: z.string().nullish(),
  taxes_included: z.boolean().nullish(),
  subtotal_price: amount.nullish(),
  subtotal_price_set: moneySet,
  total_price: amount.nullish(),
  total_price_set: moneySet,
  total_line_items_price: amount.nullish(),
  total_line_items_price_set: moneySet,
  note_attributes: z
    .array(z.object({ name: z.string(), value: z.union([z.string(), z.number()]).nullish() }))
    .nullish(),
  discount_codes: z.array(z.object({ code: z.string().nullish() })).nullish(),
  line_items: z
    .array(
      z.object({
        tax_lines: z.array(z.object({ price: amount.nullish(), price_set: moneySet })).nullish(),
      }),
    )
    .nullish(),
  customer: z
    .object({
      id: id.nullish(),
      email: z.string().nullish(),
      first_name: z.string().nullish(),
      last_name: z.string().nullish(),
    })
    .nullish(),
  billing_address: z.object({ first_name: z.string().nullish(), last_name: z.string().nullish() }).nullish(),
  cancelled_at: z.string().nullish(),
});

export type OrderPayload = z.infer<typeof orderPayloadSchema>;

export const refundPayloadSchema = z.object({
  id,
  order_id: id,
  refund_line_items: z
    .array(z.object({ subtotal: amount.nullish(), subtotal_set: moneySet }))
    .nullish(),
});

export type RefundPayload = z.infer<typeof refundPayloadSchema>;

/** Shop-currency amount of a price field, preferring the `_set.shop_money` form. */
export function shopAmount(plain: string | null | undefined, set: z.infer<typeof moneySet>): string | undefined {
  return set?.shop_money?.amount ?? plain ?? undefined;
}
