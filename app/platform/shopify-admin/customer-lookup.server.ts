import { z } from "zod";
import type { AdminGraphql } from "./admin-graphql.server";

export interface ShopCustomer {
  email: string | null;
  firstName: string | null;
  /** Shopify has seen the customer prove the email (Customer.verifiedEmail): anyone can sign up with another's address. */
  verifiedEmail: boolean;
}

/** Finds a customer by numeric id; null when the shop has no such customer. */
export type CustomerLookup = (customerId: string) => Promise<ShopCustomer | null>;

export class CustomerLookupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CustomerLookupError";
  }
}

// `email` is deprecated on Customer since 2025-04; defaultEmailAddress replaces it.
export const CUSTOMER_QUERY = `#graphql
  query ReferralCustomer($id: ID!) {
    customer(id: $id) {
      firstName
      verifiedEmail
      defaultEmailAddress {
        emailAddress
      }
    }
  }`;

const answerSchema = z.object({
  data: z.object({
    customer: z
      .object({
        firstName: z.string().nullish(),
        verifiedEmail: z.boolean().nullish(),
        defaultEmailAddress: z.object({ emailAddress: z.string().nullish() }).nullish(),
      })
      .nullable(),
  }),
});

export const customerGid = (customerId: string) => `gid://shopify/Customer/${customerId}`;

/** Looks customers up with the Admin GraphQL API (needs read_customers and protected customer data access). */
export function adminCustomerLookup(admin: AdminGraphql): CustomerLookup {
  return async (customerId) => {
    let body: unknown;
    try {
      const response = await admin.graphql(CUSTOMER_QUERY, { variables: { id: customerGid(customerId) } });
      body = await response.json();
    } catch (error) {
      throw new CustomerLookupError("The Admin API customer lookup failed", { cause: error });
    }
    const parsed = answerSchema.safeParse(body);
    if (!parsed.success) throw new CustomerLookupError("The Admin API answered the customer lookup in an unknown shape");
    const customer = parsed.data.data.customer;
    if (!customer) return null;
    const email = customer.defaultEmailAddress?.emailAddress?.trim();
    return { email: email || null, firstName: customer.firstName?.trim() || null, verifiedEmail: customer.verifiedEmail === true };
  };
}
