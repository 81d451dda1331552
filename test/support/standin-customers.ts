// The shop's customers in the Admin GraphQL stand-in, with their store
// credit as Shopify's reference describes it: one account per currency
// (opened by the first credit in that currency), each with its balance and
// its transactions (credits; debits when the customer spends at checkout),
// newest or oldest first, filtered by type; storeCreditAccountCredit with its
// userErrors; customers found by email; tags. The transactions are the
// stand-in's own record: a test counts what was credited from them.
import { addMoney, compareMoney, subtractMoney, tryParseMoney } from "../../app/platform/referral-api/money";

type Args = Record<string, unknown>;
type UserError = { field: string[] | null; message: string; code: string | null };

export interface StandInTransaction {
  id: string;
  kind: "credit" | "debit";
  /** Positive for a credit, negative for a debit, as Shopify shows them. */
  amount: string;
  currency: string;
  createdAt: Date;
  balanceAfter: string;
}

export interface StandInAccount {
  id: string;
  currency: string;
  balance: string;
  /** Oldest first. */
  transactions: StandInTransaction[];
}

export interface StandInCustomer {
  id: string;
  email: string;
  /** Shopify's verifiedEmail: true for a customer the merchant or an app made; false for a classic account not yet confirmed. */
  verifiedEmail: boolean;
  tags: string[];
  /** By currency. */
  accounts: Map<string, StandInAccount>;
}

const CREDIT_TYPE = "StoreCreditAccountCreditTransaction";
const DEBIT_TYPE = "StoreCreditAccountDebitTransaction";

/** The value of `name:` in a search string, quoted or not ("email:\"a@b\"" -> a@b). */
function term(query: unknown, name: string): string | null {
  const match = new RegExp(`${name}:(?:"((?:[^"\\\\]|\\\\.)*)"|(\\S+))`, "i").exec(String(query ?? ""));
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]!;
}

/** The transaction types a `query` asks for (type:credit OR type:debit ...); null: all. Unknown values are ignored, as Shopify does. */
function typesOf(query: unknown): Set<string> | null {
  const wanted = [...String(query ?? "").matchAll(/type:(\w+)/gi)].map((m) => m[1]!.toLowerCase()).filter((t) => ["credit", "debit", "debit_revert", "expiration"].includes(t));
  return wanted.length > 0 ? new Set(wanted) : null;
}

const cursorOf = (id: string) => Buffer.from(id).toString("base64url");
const idOfCursor = (cursor: string) => Buffer.from(cursor, "base64url").toString();

export class StandInCustomers {
  readonly byId = new Map<string, StandInCustomer>();
  /** The clock transactions are stamped by; a test whose clock moves hands it in. */
  now: () => Date = () => new Date();
  /** The `metafield` field of a customer (standin-metafields.ts, handed in by the stand-in). */
  metafieldOf: (customerId: string, args: Args) => unknown = () => null;
  /** Currencies the shop sells in besides its own (its markets'): store credit can be held in these too. */
  otherCurrencies: string[] = [];

  constructor(
    private readonly gid: (type: string) => string,
    private readonly shopCurrency: () => string,
  ) {}

  /** A customer; with a balance, that much was credited to them a month ago (in the shop's currency); `verifiedEmail: false` for one who signed up and has not confirmed their email. */
  add(email: string, options: { balance?: string; verifiedEmail?: boolean } = {}): StandInCustomer {
    const customer: StandInCustomer = { id: this.gid("Customer"), email, verifiedEmail: options.verifiedEmail ?? true, tags: [], accounts: new Map() };
    this.byId.set(customer.id, customer);
    if (options.balance && compareMoney(options.balance, "0") > 0) {
      this.record(customer, "credit", options.balance, this.shopCurrency(), new Date(this.now().getTime() - 30 * 86_400_000));
    }
    return customer;
  }

  /** The merchant credits the customer by hand in Shopify's admin (not through the app). */
  creditByHand(customer: StandInCustomer, amount: string, currency = this.shopCurrency()): StandInTransaction {
    return this.record(customer, "credit", amount, currency, this.now());
  }

  /** The customer spends store credit at checkout (a debit). */
  spend(customer: StandInCustomer, amount: string, currency = this.shopCurrency()): StandInTransaction {
    const account = customer.accounts.get(currency);
    if (!account || compareMoney(account.balance, amount) < 0) throw new Error(`${customer.email} has less than ${amount} ${currency} of store credit`);
    return this.record(customer, "debit", amount, currency, this.now());
  }

  balanceOf(customer: StandInCustomer, currency = this.shopCurrency()): string {
    return customer.accounts.get(currency)?.balance ?? "0.00";
  }

  /** The credits made to the customer in `currency`, oldest first. */
  creditsOf(customer: StandInCustomer, currency = this.shopCurrency()): StandInTransaction[] {
    return (customer.accounts.get(currency)?.transactions ?? []).filter((t) => t.kind === "credit");
  }

  /** Every credit to anyone, oldest first. */
  allCredits(): StandInTransaction[] {
    return [...this.byId.values()]
      .flatMap((c) => [...c.accounts.values()].flatMap((a) => a.transactions))
      .filter((t) => t.kind === "credit")
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  private record(customer: StandInCustomer, kind: StandInTransaction["kind"], amount: string, currency: string, at: Date): StandInTransaction {
    let account = customer.accounts.get(currency);
    if (!account) {
      account = { id: this.gid("StoreCreditAccount"), currency, balance: "0.00", transactions: [] };
      customer.accounts.set(currency, account);
    }
    account.balance = kind === "credit" ? addMoney(account.balance, amount) : subtractMoney(account.balance, amount);
    const transaction: StandInTransaction = {
      id: this.gid(kind === "credit" ? CREDIT_TYPE : DEBIT_TYPE),
      kind,
      amount: kind === "credit" ? addMoney(amount, "0") : subtractMoney("0", amount),
      currency,
      createdAt: at,
      balanceAfter: account.balance,
    };
    account.transactions.push(transaction);
    return transaction;
  }

  private money(amount: string, currency: string) {
    return { amount, currencyCode: currency };
  }

  private transactionView(account: StandInAccount, transaction: StandInTransaction): Record<string, unknown> {
    const common = {
      __typename: transaction.kind === "credit" ? CREDIT_TYPE : DEBIT_TYPE,
      id: transaction.id,
      amount: this.money(transaction.amount, transaction.currency),
      balanceAfterTransaction: this.money(transaction.balanceAfter, transaction.currency),
      createdAt: transaction.createdAt.toISOString(),
      event: transaction.kind === "credit" ? "ADJUSTMENT" : "ORDER_PAYMENT",
      origin: null,
      account: () => this.accountView(account),
    };
    return transaction.kind === "credit" ? { ...common, expiresAt: null, remainingAmount: this.money(transaction.amount, transaction.currency) } : common;
  }

  private accountView(account: StandInAccount): Record<string, unknown> {
    return {
      id: account.id,
      balance: this.money(account.balance, account.currency),
      transactions: (args: Args) => this.transactions(account, args),
    };
  }

  /** The connection's page: sorted by creation (the only sort the app uses), reverse for newest first, cursors after. */
  private transactions(account: StandInAccount, args: Args) {
    const types = typesOf(args.query);
    let list = account.transactions.filter((t) => !types || types.has(t.kind));
    if (args.reverse) list = [...list].reverse();
    const after = typeof args.after === "string" ? idOfCursor(args.after) : null;
    const start = after === null ? 0 : list.findIndex((t) => t.id === after) + 1;
    const first = typeof args.first === "number" ? args.first : 50;
    const page = list.slice(start, start + first);
    return {
      nodes: page.map((t) => this.transactionView(account, t)),
      edges: page.map((t) => ({ cursor: cursorOf(t.id), node: this.transactionView(account, t) })),
      pageInfo: {
        hasNextPage: start + page.length < list.length,
        hasPreviousPage: start > 0,
        startCursor: page[0] ? cursorOf(page[0].id) : null,
        endCursor: page.at(-1) ? cursorOf(page.at(-1)!.id) : null,
      },
    };
  }

  private customerView(customer: StandInCustomer): Record<string, unknown> {
    return {
      id: customer.id,
      email: customer.email,
      defaultEmailAddress: { emailAddress: customer.email },
      verifiedEmail: customer.verifiedEmail,
      tags: customer.tags,
      metafield: (args: Args) => this.metafieldOf(customer.id, args),
      storeCreditAccounts: (args: Args) => {
        const currency = term(args.query, "currency_code")?.toUpperCase();
        const accounts = [...customer.accounts.values()].filter((a) => !currency || a.currency === currency);
        const first = typeof args.first === "number" ? args.first : 50;
        const page = accounts.slice(0, first);
        return {
          nodes: page.map((a) => this.accountView(a)),
          pageInfo: { hasNextPage: accounts.length > page.length, hasPreviousPage: false, startCursor: null, endCursor: null },
        };
      },
    };
  }

  /** storeCreditAccountCredit: `id` is the customer (an account in the currency is opened if none) or one of their accounts. */
  private credit({ id, creditInput }: Args) {
    const input = creditInput as { creditAmount: { amount: unknown; currencyCode: string } };
    const fail = (field: string[], message: string, code: string) => ({ storeCreditAccountTransaction: null, userErrors: [{ field, message, code }] as UserError[] });
    const amount = tryParseMoney(input.creditAmount.amount);
    const currency = input.creditAmount.currencyCode;
    if (!amount || compareMoney(amount, "0") <= 0) return fail(["creditInput", "creditAmount", "amount"], "A positive amount must be used to credit a store credit account.", "NEGATIVE_OR_ZERO_AMOUNT");
    let customer = this.byId.get(String(id));
    if (!customer) {
      customer = [...this.byId.values()].find((c) => [...c.accounts.values()].some((a) => a.id === id));
      if (!customer) return fail(["id"], String(id).includes("StoreCreditAccount") ? "Store credit account does not exist" : "Owner does not exist", String(id).includes("StoreCreditAccount") ? "ACCOUNT_NOT_FOUND" : "OWNER_NOT_FOUND");
      const account = [...customer.accounts.values()].find((a) => a.id === id)!;
      if (account.currency !== currency) return fail(["creditInput", "creditAmount", "currencyCode"], "The currency provided does not match the currency of the store credit account.", "MISMATCHING_CURRENCY");
    }
    if (currency !== this.shopCurrency() && !this.otherCurrencies.includes(currency)) {
      return fail(["creditInput", "creditAmount", "currencyCode"], "The currency provided is not currently supported.", "UNSUPPORTED_CURRENCY");
    }
    const transaction = this.record(customer, "credit", amount, currency, this.now());
    return { storeCreditAccountTransaction: this.transactionView(customer.accounts.get(currency)!, transaction), userErrors: [] };
  }

  resolvers(): Record<string, (args: Args) => unknown> {
    return {
      customers: ({ first, query }) => {
        const email = term(query, "email")?.toLowerCase();
        const found = [...this.byId.values()].filter((c) => !email || c.email.toLowerCase() === email);
        const page = found.slice(0, typeof first === "number" ? first : 50);
        return {
          nodes: page.map((c) => this.customerView(c)),
          pageInfo: { hasNextPage: found.length > page.length, hasPreviousPage: false, startCursor: null, endCursor: null },
        };
      },
      customer: ({ id }) => {
        const customer = this.byId.get(String(id));
        return customer ? this.customerView(customer) : null;
      },
      storeCreditAccountCredit: (args) => this.credit(args),
      tagsAdd: ({ id, tags }) => {
        const customer = this.byId.get(String(id));
        if (!customer) return { node: null, userErrors: [{ field: ["id"], message: "Customer does not exist" }] };
        for (const tag of tags as string[]) if (!customer.tags.includes(tag)) customer.tags.push(tag);
        return { node: { __typename: "Customer", id: customer.id }, userErrors: [] };
      },
    };
  }
}
