// A stand-in for Shopify's Admin GraphQL API with just the operations the
// service events use: customers with store credit balances and tags. It
// records every call and can be told to fail the next call of an operation.
import type { AdminForShop } from "../../app/shopify-admin/admin-access";
import type { AdminGraphql } from "../../app/shopify-admin/admin-graphql.server";
import { addMoney } from "../../app/referral-api/money";

export interface FakeCustomer {
  id: string;
  email: string;
  balance: string;
  tags: string[];
}

/**
 * - "refused": Shopify answers with GraphQL errors (nothing happened);
 * - "lost": the connection drops before the call runs;
 * - "lost-after-apply": the call runs, then the answer is lost.
 */
export type FakeFailure = "refused" | "throttled" | "lost" | "lost-after-apply";

export interface FakeCall {
  operation: string;
  variables: Record<string, unknown>;
  outcome: "ok" | FakeFailure;
}

const OPERATION = /(?:query|mutation)\s+(\w+)/;

export class FakeAdmin implements AdminGraphql {
  customers: FakeCustomer[] = [];
  calls: FakeCall[] = [];
  currency = "USD";
  private failures = new Map<string, FakeFailure[]>();

  addCustomer(email: string, balance = "0.00"): FakeCustomer {
    const customer = { id: `gid://shopify/Customer/${7_000 + this.customers.length}`, email, balance, tags: [] };
    this.customers.push(customer);
    return customer;
  }

  failNext(operation: string, ...failures: FakeFailure[]): void {
    this.failures.set(operation, [...(this.failures.get(operation) ?? []), ...failures]);
  }

  callsOf(operation: string, outcome?: FakeCall["outcome"]): FakeCall[] {
    return this.calls.filter((c) => c.operation === operation && (outcome === undefined || c.outcome === outcome));
  }

  async graphql(query: string, options: { variables?: Record<string, unknown> } = {}) {
    const operation = OPERATION.exec(query)?.[1] ?? "anonymous";
    const variables = options.variables ?? {};
    const failure = this.failures.get(operation)?.shift();
    this.calls.push({ operation, variables, outcome: failure ?? "ok" });
    if (failure === "lost") throw new TypeError("fetch failed");
    if (failure === "refused") {
      return Response.json({ errors: [{ message: "Access denied for storeCreditAccountCredit field.", extensions: { code: "ACCESS_DENIED" } }] });
    }
    if (failure === "throttled") {
      return Response.json({ errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }] });
    }
    const data = this.run(operation, variables);
    if (failure === "lost-after-apply") throw new TypeError("fetch failed");
    return Response.json({ data });
  }

  private byId(id: unknown): FakeCustomer | undefined {
    return this.customers.find((c) => c.id === id);
  }

  private run(operation: string, variables: Record<string, unknown>): unknown {
    switch (operation) {
      case "ReferralBridgeFindCustomer": {
        const wanted = /email:"(.*)"/.exec(String(variables.query))?.[1]?.toLowerCase();
        const nodes = this.customers
          .filter((c) => c.email.toLowerCase() === wanted)
          .map((c) => ({ id: c.id, defaultEmailAddress: { emailAddress: c.email } }));
        return { customers: { nodes } };
      }
      case "ReferralBridgeStoreCreditBalance": {
        const customer = this.byId(variables.id);
        const nodes = customer ? [{ id: `${customer.id}/account`, balance: { amount: customer.balance, currencyCode: this.currency } }] : [];
        return { shop: { currencyCode: this.currency }, customer: customer ? { storeCreditAccounts: { nodes } } : null };
      }
      case "ReferralBridgeCreditStoreCredit": {
        const customer = this.byId(variables.id);
        const input = variables.creditInput as { creditAmount: { amount: string; currencyCode: string } };
        if (!customer) return { storeCreditAccountCredit: { storeCreditAccountTransaction: null, userErrors: [{ message: "Owner not found" }] } };
        customer.balance = addMoney(customer.balance, input.creditAmount.amount);
        const transaction = { id: `gid://shopify/StoreCreditAccountCreditTransaction/${this.calls.length}`, amount: input.creditAmount };
        return { storeCreditAccountCredit: { storeCreditAccountTransaction: transaction, userErrors: [] } };
      }
      case "ReferralBridgeTagCustomer": {
        const customer = this.byId(variables.id);
        for (const tag of variables.tags as string[]) if (customer && !customer.tags.includes(tag)) customer.tags.push(tag);
        return { tagsAdd: { node: customer ? { id: customer.id } : null, userErrors: [] } };
      }
      default:
        throw new Error(`The fake Admin API does not know ${operation}`);
    }
  }

  /** What a job context's adminForShop gives: this fake for every shop. */
  access(): AdminForShop {
    return async () => ({ ok: true, admin: this });
  }
}
