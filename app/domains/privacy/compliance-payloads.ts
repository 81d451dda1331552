import { z } from "zod";
import { emailKey } from "../../platform/text/email-key";

// The fields of Shopify's compliance webhook payloads the app reads. Every
// field is optional: a request is carried out with whatever identifies the
// customer, and a body that says less never makes the webhook fail.

const id = z.union([z.number(), z.string().min(1)]).transform(String);

const customer = z
  .object({ id: id.nullish(), email: z.string().nullish(), phone: z.string().nullish() })
  .partial()
  .nullish()
  .catch(null);

const orderIds = z.array(id).nullish().catch(null);

export const dataRequestPayloadSchema = z.object({
  customer,
  orders_requested: orderIds,
  data_request: z.object({ id: id.nullish() }).partial().nullish().catch(null),
});

export const customerRedactPayloadSchema = z.object({
  customer,
  orders_to_redact: orderIds,
});

export interface CustomerIdentity {
  email: string | null;
  customerId: string | null;
  orderIds: string[];
}

function identity(input: { customer?: { id?: string | null; email?: string | null } | null }, orders: string[] | null | undefined): CustomerIdentity {
  const email = emailKey(input.customer?.email);
  return { email, customerId: input.customer?.id ?? null, orderIds: [...new Set(orders ?? [])] };
}

export function readDataRequest(payload: unknown): CustomerIdentity & { requestId: string | null } {
  const parsed = dataRequestPayloadSchema.safeParse(payload ?? {});
  const data = parsed.success ? parsed.data : {};
  return { ...identity(data, data.orders_requested), requestId: data.data_request?.id ?? null };
}

export function readCustomerRedact(payload: unknown): CustomerIdentity {
  const parsed = customerRedactPayloadSchema.safeParse(payload ?? {});
  const data = parsed.success ? parsed.data : {};
  return identity(data, data.orders_to_redact);
}
