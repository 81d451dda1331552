/**
 * Shopify's customer search (`customers(query:)`) for one email: the value in
 * double quotes, with quotes and backslashes escaped. The search may also
 * return near matches, so callers still compare the email themselves.
 */
export function customerEmailQuery(email: string): string {
  return `email:"${email.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** Whether a customer's email is this one, in any case (how a search's results are narrowed to the customer). */
export function sameCustomerEmail(customerEmail: string | null | undefined, email: string): boolean {
  return customerEmail?.trim().toLowerCase() === email.trim().toLowerCase();
}
