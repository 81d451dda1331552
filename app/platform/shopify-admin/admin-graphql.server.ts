// The Shopify Admin GraphQL API as the app calls it: a client of the shape
// of admin.graphql from shopify-app-remix (so tests give a fake one or the
// local stand-in), and the one error every call throws.

export interface AdminGraphql {
  graphql(query: string, options?: { variables?: Record<string, unknown>; signal?: AbortSignal }): Promise<{ json(): Promise<unknown> }>;
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

/** What a call that threw (a lost answer, an HTTP error, a refused query) means for whether it happened. */
export function describeThrown(thrown: unknown): AdminCallError {
  if (thrown instanceof AdminCallError) return thrown;
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
