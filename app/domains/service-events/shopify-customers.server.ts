import { realSleep } from "../../platform/http/sleep";
import { adminCall } from "../../platform/shopify-admin/admin-call.server";
import { AdminCallError, type AdminGraphql } from "../../platform/shopify-admin/admin-graphql.server";
import { shopCurrencyOf as shopCurrency } from "../../platform/shopify-admin/shop-currency.server";
import { customerEmailQuery } from "../../platform/shopify-admin/customer-search";
import { chooseCustomer, CUSTOMER_IDENTITY_FIELDS, type CustomerChoice, type CustomerIdentity } from "../../platform/shopify-admin/customer-identity";

// The Shopify Admin GraphQL operations the service's events lead to: finding
// the ambassador's customer, the shop's currency, a customer's store credits,
// crediting them, tagging them.

/** Calls paced by the shop's query cost, as every Admin call of the app is. */
const call = <T>(admin: AdminGraphql, query: string, variables: Record<string, unknown>) => adminCall<T>({ admin, sleep: realSleep }, query, variables);

interface UserError {
  message: string;
}

function userErrorText(errors: UserError[] | undefined): string | null {
  return errors && errors.length > 0 ? errors.map((e) => e.message).join("; ") : null;
}

const FIND_CUSTOMERS = `#graphql
query ReferralBridgeFindCustomer($query: String!) {
  customers(first: 5, query: $query) {
    nodes { ${CUSTOMER_IDENTITY_FIELDS} }
  }
}`;

const CUSTOMER_BY_ID = `#graphql
query ReferralBridgeCustomerById($id: ID!) {
  customer(id: $id) { ${CUSTOMER_IDENTITY_FIELDS} }
}`;

/**
 * The ambassador's Shopify customer (see chooseCustomer): the one the
 * service names by id (`namedId`, a gid) when it has this email, else the one
 * with this email that Shopify verified.
 */
export async function findAmbassadorCustomer(admin: AdminGraphql, email: string, namedId?: string | null): Promise<CustomerChoice<CustomerIdentity>> {
  if (namedId) {
    const { customer } = await call<{ customer: CustomerIdentity | null }>(admin, CUSTOMER_BY_ID, { id: namedId });
    const byId = chooseCustomer(email, [], customer);
    if (byId.ok) return byId;
  }
  const data = await call<{ customers: { nodes: CustomerIdentity[] } }>(admin, FIND_CUSTOMERS, { query: customerEmailQuery(email) });
  return chooseCustomer(email, data.customers.nodes);
}

/** The currency the shop sells in (its store currency). */
export const shopCurrencyOf = (admin: AdminGraphql): Promise<string> => shopCurrency({ admin, sleep: realSleep });

/** A credit to a customer's store credit account, as Shopify lists it. */
export interface StoreCredit {
  id: string;
  amount: string;
  createdAt: Date;
  /** Made by an order (a refund to store credit, say), not by an app or the merchant. */
  fromOrder: boolean;
}

export const CREDITS_PER_PAGE = 50;
const MAX_CREDIT_PAGES = 4;

// The customer's account in one currency (Shopify keeps one per currency),
// and its credits, newest first.
const STORE_CREDITS = `#graphql
query ReferralBridgeStoreCredits($id: ID!, $account: String!, $first: Int!, $after: String) {
  customer(id: $id) {
    storeCreditAccounts(first: 1, query: $account) {
      nodes {
        id
        transactions(first: $first, after: $after, reverse: true, sortKey: CREATED_AT, query: "type:credit") {
          nodes {
            __typename
            amount { amount currencyCode }
            createdAt
            origin { __typename }
            ... on StoreCreditAccountCreditTransaction { id }
          }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }
}`;

interface CreditsPage {
  customer: {
    storeCreditAccounts: {
      nodes: {
        transactions: {
          nodes: { __typename: string; id?: string; amount: { amount: string; currencyCode: string }; createdAt: string; origin: { __typename: string } | null }[];
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
        };
      }[];
    };
  } | null;
}

/**
 * The credits made to a customer's store credit in `currency` since `since`
 * (by Shopify's clock), newest first. `complete` is false when there were
 * more than the app reads (a few pages), or the customer is gone: what was
 * read cannot then tell the whole story.
 */
export async function storeCreditsSince(
  admin: AdminGraphql,
  input: { customerId: string; currency: string; since: Date },
): Promise<{ credits: StoreCredit[]; complete: boolean }> {
  const credits: StoreCredit[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_CREDIT_PAGES; page++) {
    const data: CreditsPage = await call<CreditsPage>(admin, STORE_CREDITS, {
      id: input.customerId,
      account: `currency_code:${input.currency}`,
      first: CREDITS_PER_PAGE,
      after,
    });
    if (!data.customer) return { credits, complete: false };
    const account = data.customer.storeCreditAccounts.nodes[0];
    // No account in this currency: nothing was ever credited in it.
    if (!account) return { credits, complete: true };
    const { nodes, pageInfo } = account.transactions;
    for (const node of nodes) {
      const createdAt = new Date(node.createdAt);
      if (createdAt < input.since) return { credits, complete: true };
      if (node.__typename !== "StoreCreditAccountCreditTransaction" || !node.id || node.amount.currencyCode !== input.currency) continue;
      credits.push({ id: node.id, amount: node.amount.amount, createdAt, fromOrder: node.origin !== null });
    }
    if (!pageInfo.hasNextPage) return { credits, complete: true };
    after = pageInfo.endCursor;
  }
  return { credits, complete: false };
}

const CREDIT_STORE_CREDIT = `#graphql
mutation ReferralBridgeCreditStoreCredit($id: ID!, $creditInput: StoreCreditAccountCreditInput!) {
  storeCreditAccountCredit(id: $id, creditInput: $creditInput) {
    storeCreditAccountTransaction { id amount { amount currencyCode } }
    userErrors { field message code }
  }
}`;

/**
 * storeCreditAccountCredit on the customer, in `currency` (Shopify opens the
 * customer's account in that currency when there is none). Returns the
 * transaction's id. Shopify's credit takes no note or reference: the
 * transaction is known by its account, amount and time alone.
 */
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
