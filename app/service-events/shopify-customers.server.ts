import { realSleep } from "../referral-api/sleep";
import { adminCall } from "../shopify-admin/admin-call.server";
import { AdminCallError, type AdminGraphql } from "../shopify-admin/admin-graphql.server";

// The Shopify Admin GraphQL operations the service's events lead to: finding
// a customer by email, their store credit, crediting it, tagging them.

/** Calls paced by the shop's query cost, as every Admin call of the app is. */
const call = <T>(admin: AdminGraphql, query: string, variables: Record<string, unknown>) => adminCall<T>({ admin, sleep: realSleep }, query, variables);

interface UserError {
  message: string;
}

function userErrorText(errors: UserError[] | undefined): string | null {
  return errors && errors.length > 0 ? errors.map((e) => e.message).join("; ") : null;
}

/** Shopify search syntax: the value in double quotes, with quotes and backslashes escaped. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

const FIND_CUSTOMER = `#graphql
query ReferralBridgeFindCustomer($query: String!) {
  customers(first: 5, query: $query) {
    nodes { id defaultEmailAddress { emailAddress } }
  }
}`;

/** The Shopify customer with exactly this email (any case), or null. */
export async function findCustomerByEmail(admin: AdminGraphql, email: string): Promise<{ id: string } | null> {
  const data = await call<{ customers: { nodes: { id: string; defaultEmailAddress: { emailAddress: string | null } | null }[] } }>(
    admin,
    FIND_CUSTOMER,
    { query: `email:${quoted(email)}` },
  );
  const wanted = email.trim().toLowerCase();
  const match = data.customers.nodes.find((c) => c.defaultEmailAddress?.emailAddress?.trim().toLowerCase() === wanted);
  return match ? { id: match.id } : null;
}

const STORE_CREDIT_BALANCE = `#graphql
query ReferralBridgeStoreCreditBalance($id: ID!) {
  shop { currencyCode }
  customer(id: $id) {
    storeCreditAccounts(first: 20) { nodes { id balance { amount currencyCode } } }
  }
}`;

/** The shop's currency and the customer's store credit balance in it ("0" without an account). */
export async function storeCreditBalance(admin: AdminGraphql, customerId: string): Promise<{ currency: string; balance: string }> {
  const data = await call<{
    shop: { currencyCode: string };
    customer: { storeCreditAccounts: { nodes: { balance: { amount: string; currencyCode: string } }[] } } | null;
  }>(admin, STORE_CREDIT_BALANCE, { id: customerId });
  const currency = data.shop.currencyCode;
  const account = data.customer?.storeCreditAccounts.nodes.find((a) => a.balance.currencyCode === currency);
  return { currency, balance: account?.balance.amount ?? "0" };
}

const CREDIT_STORE_CREDIT = `#graphql
mutation ReferralBridgeCreditStoreCredit($id: ID!, $creditInput: StoreCreditAccountCreditInput!) {
  storeCreditAccountCredit(id: $id, creditInput: $creditInput) {
    storeCreditAccountTransaction { id amount { amount currencyCode } }
    userErrors { field message code }
  }
}`;

/** storeCreditAccountCredit on the customer (Shopify opens the account when there is none). Returns the transaction id. */
export async function creditStoreCredit(
  admin: AdminGraphql,
  input: { customerId: string; amount: string; currency: string },
): Promise<string> {
  const data = await call<{
    storeCreditAccountCredit: { storeCreditAccountTransaction: { id: string } | null; userErrors: UserError[] };
  }>(admin, CREDIT_STORE_CREDIT, {
    id: input.customerId,
    creditInput: { creditAmount: { amount: input.amount, currencyCode: input.currency } },
  });
  const refused = userErrorText(data.storeCreditAccountCredit.userErrors);
  if (refused) throw new AdminCallError(`Shopify refused the store credit: ${refused}`, false);
  const transaction = data.storeCreditAccountCredit.storeCreditAccountTransaction;
  if (!transaction) throw new AdminCallError("Shopify answered without a store credit transaction", "unknown");
  return transaction.id;
}

const TAG_CUSTOMER = `#graphql
mutation ReferralBridgeTagCustomer($id: ID!, $tags: [String!]!) {
  tagsAdd(id: $id, tags: $tags) {
    node { id }
    userErrors { field message }
  }
}`;

export async function tagCustomer(admin: AdminGraphql, customerId: string, tags: string[]): Promise<void> {
  const data = await call<{ tagsAdd: { userErrors: UserError[] } }>(admin, TAG_CUSTOMER, { id: customerId, tags });
  const refused = userErrorText(data.tagsAdd.userErrors);
  if (refused) throw new AdminCallError(`Shopify refused the tag: ${refused}`, false);
}
