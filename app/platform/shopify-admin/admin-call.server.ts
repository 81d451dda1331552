import { AdminCallError, describeThrown, type AdminGraphql } from "./admin-graphql.server";
import type { Sleep } from "../http/sleep";

// One Admin GraphQL call that keeps to Shopify's cost-based rate limit: it
// reads the bucket from `extensions.cost` after every answer, waits before
// the next call when the bucket could not pay for it, and answers THROTTLED
// by waiting until the bucket has refilled enough, a few times over.

export interface AdminCallDeps {
  admin: AdminGraphql;
  sleep: Sleep;
}

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface Cost {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: ThrottleStatus;
}

interface GraphqlBody<T> {
  data?: T;
  errors?: { message?: string; extensions?: { code?: string } }[] | string;
  extensions?: { cost?: Cost };
}

const MAX_THROTTLED = 6;
const MAX_WAIT_MS = 30_000;
/**
 * At most this long waiting out THROTTLED answers in one call: with each
 * request bounded (bounded-admin.ts), a call's last request starts within
 * this and ends within ADMIN_CALL_TIMEOUT_MS more, well inside a payout's
 * two-minute settle window. A throttled request was not run, so giving up
 * changes nothing at Shopify.
 */
export const MAX_THROTTLED_WAIT_MS = 60_000;

/** How long until the bucket holds `needed` points again. */
export function refillWaitMs(cost: Cost | undefined, needed: number): number {
  const status = cost?.throttleStatus;
  if (!status || status.restoreRate <= 0) return 1_000;
  const missing = Math.min(needed, status.maximumAvailable) - status.currentlyAvailable;
  return missing <= 0 ? 0 : Math.min(MAX_WAIT_MS, Math.ceil((missing / status.restoreRate) * 1_000));
}

function isThrottled(errors: GraphqlBody<unknown>["errors"]): boolean {
  return Array.isArray(errors) && errors.some((e) => e?.extensions?.code === "THROTTLED");
}

function errorText(errors: GraphqlBody<unknown>["errors"]): string {
  // A refused token is answered with one string ({"errors": "[API] Invalid API key or access token ..."}).
  if (!Array.isArray(errors)) return String(errors ?? "");
  return errors.map((e) => e?.message ?? String(e)).join("; ");
}

/** The body of a call, whether the client library answered it or threw it (shopify-api throws GraphQL errors). */
async function answerOf<T>(admin: AdminGraphql, query: string, variables: Record<string, unknown>): Promise<GraphqlBody<T>> {
  try {
    const response = await admin.graphql(query, { variables });
    return (await response.json()) as GraphqlBody<T>;
  } catch (thrown) {
    const body = (thrown as { body?: GraphqlBody<T> } | null)?.body;
    if (body && Array.isArray(body.errors)) return body;
    throw describeThrown(thrown);
  }
}

export async function adminCall<T>(deps: AdminCallDeps, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  let waited = 0;
  for (let throttled = 0; ; throttled += 1) {
    const body = await answerOf<T>(deps.admin, query, variables);
    const cost = body.extensions?.cost;
    if (isThrottled(body.errors)) {
      // Exponential on top of the refill time, for buckets shared with other work.
      const wait = Math.max(refillWaitMs(cost, cost?.requestedQueryCost ?? 50), 250) * 2 ** throttled;
      if (throttled >= MAX_THROTTLED || waited + wait > MAX_THROTTLED_WAIT_MS) throw new AdminCallError("Shopify kept asking the app to slow down", false);
      waited += wait;
      await deps.sleep(wait);
      continue;
    }
    if (body.errors?.length) throw new AdminCallError(`Shopify refused the request: ${errorText(body.errors)}`, false);
    if (!body.data) throw new AdminCallError("Shopify answered without data", "unknown");
    // Pace the next call: wait when the bucket could not pay for one like this (an answer without its cost, none).
    const wait = cost?.throttleStatus ? refillWaitMs(cost, cost.requestedQueryCost ?? 0) : 0;
    if (wait > 0) await deps.sleep(wait);
    return body.data;
  }
}
