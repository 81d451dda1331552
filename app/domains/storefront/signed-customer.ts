import { z } from "zod";

/**
 * Who is asking, read only from what Shopify signed: the app proxy's
 * `logged_in_customer_id` or a customer account session token. Anything the
 * page adds on its own (another id, an email) is never read.
 */
export type SignedCustomer =
  | { kind: "customer"; customerId: string }
  | { kind: "guest" }
  | { kind: "invalid"; reason: string };

const customerId = z.string().regex(/^[1-9]\d{0,19}$/, "must be a Shopify customer id");
const customerGid = z
  .string()
  .regex(/^gid:\/\/shopify\/Customer\/[1-9]\d{0,19}$/, "must be a Shopify customer gid")
  .transform((gid) => gid.slice(gid.lastIndexOf("/") + 1));
const shopDomain = z
  .string()
  .transform((dest) => dest.trim().replace(/^https:\/\//i, "").replace(/\/+$/, "").toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must be a myshopify.com domain"));

/** The app proxy's `logged_in_customer_id`: empty for a guest. */
export function proxyCustomer(search: URLSearchParams): SignedCustomer {
  const values = search.getAll("logged_in_customer_id");
  // Shopify sends it once; a second value can only come from the page.
  if (values.length > 1) return { kind: "invalid", reason: "logged_in_customer_id is given more than once" };
  const value = values[0]?.trim() ?? "";
  if (value === "") return { kind: "guest" };
  const parsed = customerId.safeParse(value);
  return parsed.success
    ? { kind: "customer", customerId: parsed.data }
    : { kind: "invalid", reason: "logged_in_customer_id is not a customer id" };
}

/** A customer account session token's `sub` (absent when no customer is signed in). */
export function sessionTokenCustomer(sub: unknown): SignedCustomer {
  if (sub === undefined || sub === null || sub === "") return { kind: "guest" };
  const parsed = customerGid.safeParse(sub);
  return parsed.success
    ? { kind: "customer", customerId: parsed.data }
    : { kind: "invalid", reason: "the session token's sub is not a customer" };
}

/** A session token's `dest`, with or without https://, as the shop's myshopify.com domain. */
export function sessionTokenShop(dest: unknown): string | null {
  const parsed = shopDomain.safeParse(dest);
  return parsed.success ? parsed.data : null;
}
