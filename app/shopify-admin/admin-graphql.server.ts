// The Shopify Admin GraphQL calls the service events lead to. Each takes an
// `admin` client (the shape of admin.graphql from shopify-app-remix), so tests
// give a fake one.

export interface AdminGraphql {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<{ json(): Promise<unknown> }>;
}

/**
 * A failed Admin call. `applied: false` means Shopify surely did not carry it
 * out (it refused or never ran it); "unknown" means the answer was lost and
 * the change may or may not have happened.
 */
export class AdminCallError extends Error {
  constructor(
    message: string,
    readonly applied: false | "unknown",
  ) {
    super(message);
    this.name = "AdminCallError";
  }
}

function statusOf(thrown: unknown): number | undefined {
  if (thrown instanceof Response) return thrown.status;
  const code = (thrown as { response?: { code?: unknown } } | null)?.response?.code;
  return typeof code === "number" ? code : undefined;
}

function describeThrown(thrown: unknown): AdminCallError {
  const status = statusOf(thrown);
  if (status !== undefined) {
    // Shopify did not run a request it answered with 4xx; a 5xx may have been half-way through.
    return new AdminCallError(`Shopify answered HTTP ${status}`, status >= 500 ? "unknown" : false);
  }
  const body = (thrown as { body?: { errors?: unknown } } | null)?.body;
  if ((thrown as Error | null)?.name === "GraphqlQueryError" || body?.errors) {
    return new AdminCallError(`Shopify refused the request: ${(thrown as Error).message}`, false);
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new AdminCallError(`No answer from Shopify: ${message}`, "unknown");
}

function messagesOf(errors: unknown): string {
  if (!Array.isArray(errors)) return String(errors);
  return errors.map((e) => (e && typeof e === "object" && "message" in e ? String(e.message) : String(e))).join("; ");
}

async function call<T>(admin: AdminGraphql, query: string, variables: Record<string, unknown>): Promise<T> {
  let body: { data?: T; errors?: unknown };
  try {
    const response = await admin.graphql(query, { variables });
    body = (await response.json()) as typeof body;
  } catch (thrown) {
    throw describeThrown(thrown);
  }
  if (body?.errors) throw new AdminCallError(`Shopify refused the request: ${messagesOf(body.errors)}`, false);
  if (!body?.data) throw new AdminCallError("Shopify answered without data", "unknown");
  return body.data;
}

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
