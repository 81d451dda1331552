import { describe, expect, it } from "vitest";
import { PAYOUT_SETTLE_MS } from "../../../app/domains/service-events/payout-events.server";
import { adminCall, MAX_THROTTLED_WAIT_MS } from "../../../app/platform/shopify-admin/admin-call.server";
import { AdminCallError } from "../../../app/platform/shopify-admin/admin-graphql.server";
import { ADMIN_CALL_TIMEOUT_MS, boundAdminCalls } from "../../../app/platform/shopify-admin/bounded-admin";

// Every Admin call ends well inside a payout's settle window: each request is
// aborted after its bound, and the waits for a throttled call have a budget.

describe("Admin calls are bounded", () => {
  it("a call whose answer never comes fails after the bound as 'unknown' (it may have landed), and its request is aborted", async () => {
    let signal: AbortSignal | undefined;
    const hanging = { graphql: (_query: string, options?: { signal?: AbortSignal }) => ((signal = options?.signal), new Promise<never>(() => {})) };
    const started = performance.now();
    const call = adminCall({ admin: boundAdminCalls(hanging, 100), sleep: async () => {} }, "query Shop { shop { id } }");
    await expect(call).rejects.toMatchObject({ name: "AdminCallError", applied: "unknown", message: expect.stringMatching(/No answer from Shopify within/) });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(signal?.aborted).toBe(true);
  });

  it("a body that stops half-way is bounded too; an answer in time is passed on as it came", async () => {
    const stalledBody = { graphql: async () => ({ json: () => new Promise<never>(() => {}) }) };
    await expect(boundAdminCalls(stalledBody, 100).graphql("query Shop { shop { id } }").then((r) => r.json())).rejects.toBeInstanceOf(AdminCallError);
    const quick = { graphql: async () => Response.json({ data: { shop: { id: "gid://shopify/Shop/1" } } }) };
    expect(await adminCall({ admin: boundAdminCalls(quick, 100), sleep: async () => {} }, "query Shop { shop { id } }")).toEqual({ shop: { id: "gid://shopify/Shop/1" } });
  });

  it("a call Shopify keeps throttling gives up once its waits would pass their budget, and reports nothing was run", async () => {
    const waits: number[] = [];
    const throttled = { graphql: async () => Response.json({ errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }], extensions: { cost: { requestedQueryCost: 1000, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 } } } }) };
    const call = adminCall({ admin: throttled, sleep: async (ms) => void waits.push(ms) }, "query Shop { shop { id } }");
    await expect(call).rejects.toMatchObject({ applied: false, message: expect.stringMatching(/slow down/) });
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_THROTTLED_WAIT_MS);
  });

  it("the longest call (its throttled waits, then one bounded request) ends inside the payout settle window", () => {
    expect(MAX_THROTTLED_WAIT_MS + ADMIN_CALL_TIMEOUT_MS).toBeLessThan(PAYOUT_SETTLE_MS);
  });
});
