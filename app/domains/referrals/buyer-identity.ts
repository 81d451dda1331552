import type { OrderPayload } from "./order-payload";

// Who the referral service is told bought: event/record requires an email.
// A POS sale often has a customer with a phone number and no email; Shopify
// knows them by their customer id, which the app sends as `uid` anyway. Such
// a buyer is sent under an address made from that id, on a reserved domain
// that no mail can reach (decision 033). Only a sale with neither an email
// nor a customer is anonymous: nothing names its buyer, so it is skipped.

/** RFC 2606 reserves `.invalid`: nothing the service might send there is delivered. */
export const NO_EMAIL_DOMAIN = "no-email.invalid";

/** The address a customer without an email is recorded under: the same for the same Shopify customer. */
export function customerIdEmail(customerId: string): string {
  return `shopify-customer-${customerId}@${NO_EMAIL_DOMAIN}`;
}

export function isCustomerIdEmail(email: string | null | undefined): boolean {
  return Boolean(email?.toLowerCase().endsWith(`@${NO_EMAIL_DOMAIN}`));
}

/** Shopify POS writes "pos" as the order's source. */
export const isPosOrder = (order: Pick<OrderPayload, "source_name">) => order.source_name === "pos";

/** The order's own email, its contact email, else its customer's. */
export function orderEmail(order: OrderPayload): string | undefined {
  for (const email of [order.email, order.contact_email, order.customer?.email]) {
    const trimmed = email?.trim();
    if (trimmed) return trimmed;
  }
  return undefined;
}

export type BuyerIdentity = { kind: "email" | "customer_id"; email: string } | { kind: "anonymous"; reason: string };

/** The email event/record is sent with: the order's, else one made from its customer's id; or why the sale is anonymous. */
export function buyerIdentity(order: OrderPayload): BuyerIdentity {
  const email = orderEmail(order);
  if (email) return { kind: "email", email };
  const customerId = order.customer?.id;
  if (customerId) return { kind: "customer_id", email: customerIdEmail(customerId) };
  return {
    kind: "anonymous",
    reason: isPosOrder(order)
      ? "Anonymous POS sale: no customer was added to the cart and the order has no email, so the referral service cannot record it (add the customer at the counter to credit a referral)"
      : "The order has no customer email and no customer, so the referral service cannot record it",
  };
}
