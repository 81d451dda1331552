// A stand-in for the shop's Admin GraphQL API, and nothing else: requests to
// https://<shop>.myshopify.com/admin/api/<version>/graphql.json are answered
// here; every other request (the sandbox, the browser tests' servers) goes out
// as usual.
//
// Import this module BEFORE anything that imports app/wiring/shopify.server: the
// Shopify API library keeps the `fetch` it finds when it is first imported.

export interface StubCustomer {
  email: string | null;
  firstName: string | null;
  /** Shopify's Customer.verifiedEmail; true unless said (a customer who signed up and never confirmed the address). */
  verifiedEmail?: boolean;
}

export interface AdminCall {
  shop: string;
  apiVersion: string;
  accessToken: string | null;
  query: string;
  variables: Record<string, unknown>;
}

const ADMIN_GRAPHQL = /^\/admin\/api\/([^/]+)\/graphql\.json$/;

export const adminApi = {
  /** By customer gid; a missing gid answers `customer: null`. */
  customers: new Map<string, StubCustomer>(),
  calls: [] as AdminCall[],
  /** Answer every call with this HTTP status instead (e.g. 500), or with GraphQL errors ("graphql"). */
  failure: null as number | "graphql" | null,
  reset(): void {
    this.customers.clear();
    this.calls = [];
    this.failure = null;
  },
  addCustomer(customerId: string, customer: StubCustomer): void {
    this.customers.set(`gid://shopify/Customer/${customerId}`, customer);
  },
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

async function answer(request: Request, shop: string, apiVersion: string): Promise<Response> {
  const body = (await request.json()) as { query: string; variables?: Record<string, unknown> };
  adminApi.calls.push({
    shop,
    apiVersion,
    accessToken: request.headers.get("X-Shopify-Access-Token"),
    query: body.query,
    variables: body.variables ?? {},
  });
  if (typeof adminApi.failure === "number") return json(adminApi.failure, { errors: "Internal error" });
  if (adminApi.failure === "graphql") return json(200, { errors: [{ message: "Access denied for customer field." }] });
  if (!/\bcustomer\(id: \$id\)/.test(body.query)) return json(200, { errors: [{ message: "The stub only knows the customer query." }] });
  const customer = adminApi.customers.get(String(body.variables?.id));
  return json(200, {
    data: {
      customer: customer
        ? { firstName: customer.firstName, verifiedEmail: customer.verifiedEmail ?? true, defaultEmailAddress: customer.email === null ? null : { emailAddress: customer.email } }
        : null,
    },
  });
}

const passThrough = globalThis.fetch;

globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const admin = ADMIN_GRAPHQL.exec(url.pathname);
  if (url.protocol === "https:" && url.hostname.endsWith(".myshopify.com") && admin) {
    return answer(new Request(input, init), url.hostname, admin[1]);
  }
  return passThrough(input, init);
};
