import { sameCustomerEmail } from "./customer-search";

// Which Shopify customer an email stands for. In a shop with classic customer
// accounts anyone can open an account under any email; Shopify sets
// `verifiedEmail` once the customer has proven the address (a customer the
// merchant or an app created starts verified). So an email on its own names a
// customer only when Shopify verified it. A customer named by id by a source
// the app trusts (the referral service's uid, which the app enrols customers
// with) stands as long as it still has the email.

/** The fields every look-up that names a customer by email asks for (Admin GraphQL, 2026-10). */
export const CUSTOMER_IDENTITY_FIELDS = "id defaultEmailAddress { emailAddress } verifiedEmail";

export interface CustomerIdentity {
  id: string;
  defaultEmailAddress: { emailAddress: string | null } | null;
  verifiedEmail: boolean;
}

export type CustomerChoice<C> = { ok: true; customer: C } | { ok: false; why: "none" | "unverified" };

const emailOf = (customer: CustomerIdentity) => customer.defaultEmailAddress?.emailAddress;

/**
 * The customer `email` stands for: `named` (looked up by a trusted id) when
 * it has the email, else the first of `found` (a search by email) that has
 * it and whose email Shopify verified. "unverified": customers have the
 * email, none verified it.
 */
export function chooseCustomer<C extends CustomerIdentity>(email: string, found: readonly C[], named?: C | null): CustomerChoice<C> {
  if (named && sameCustomerEmail(emailOf(named), email)) return { ok: true, customer: named };
  const withEmail = found.filter((customer) => sameCustomerEmail(emailOf(customer), email));
  const verified = withEmail.find((customer) => customer.verifiedEmail);
  if (verified) return { ok: true, customer: verified };
  return { ok: false, why: withEmail.length > 0 ? "unverified" : "none" };
}

/**
 * A customer id as the referral service carries it (the uid the app enrolled
 * them with: Shopify's numeric id, or its gid), as a gid; null for anything
 * else (empty, another system's id).
 */
export function serviceCustomerGid(uid: string | null | undefined): string | null {
  const text = uid?.trim() ?? "";
  if (/^[1-9]\d{0,19}$/.test(text)) return `gid://shopify/Customer/${text}`;
  return /^gid:\/\/shopify\/Customer\/[1-9]\d{0,19}$/.test(text) ? text : null;
}
