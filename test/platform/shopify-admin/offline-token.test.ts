import { Session } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { MIGRATION_RETRY_MS, offlineTokens, TOKEN_REFUSED, type OfflineTokenDeps } from "../../../app/platform/shopify-admin/offline-token.server";

// The offline token made ready before a background Admin call: refreshed
// near its expiry (once per shop at a time), a refusal told apart from a
// failure worth retrying, a non-expiring token exchanged for an expiring pair.

const SHOP = "referral-demo.myshopify.com";
const ID = `offline_${SHOP}`;
const T0 = Date.parse("2026-11-26T12:00:00Z");

function setUp(stored: Partial<Session>, overrides: Partial<OfflineTokenDeps> = {}) {
  let clock = T0;
  const rows = new Map<string, Session>([[ID, new Session({ id: ID, shop: SHOP, state: "", isOnline: false, ...stored })]]);
  const calls: string[] = [];
  const pair = (n: number) => new Session({ id: ID, shop: SHOP, state: "", isOnline: false, accessToken: `shpat_new${n}`, refreshToken: `shprt_new${n}`, expires: new Date(clock + 3_600_000) });
  const deps: OfflineTokenDeps = {
    storage: { loadSession: async (id) => rows.get(id), storeSession: async (s) => (rows.set(s.id, s), true) },
    refresh: async (_shop, refreshToken) => (calls.push(`refresh:${refreshToken}`), await new Promise((r) => setTimeout(r, 5)), pair(calls.length)),
    migrate: async (_shop, token) => (calls.push(`migrate:${token}`), pair(calls.length)),
    expiring: true,
    now: () => clock,
    ...overrides,
  };
  return { ready: offlineTokens(deps), rows, calls, advance: (ms: number) => (clock += ms) };
}

const httpError = (code: number) => Object.assign(new Error(`HTTP ${code}`), { response: { code } });

describe("readyOfflineToken", () => {
  it("a token good for more than five minutes is used as it is", async () => {
    const { ready, calls } = setUp({ accessToken: "shpat_a", refreshToken: "shprt_a", expires: new Date(T0 + 10 * 60_000) });
    expect(await ready(SHOP, ID)).toMatchObject({ ok: true, renewed: null, session: { accessToken: "shpat_a" } });
    expect(calls).toEqual([]);
  });

  it("a token about to expire is refreshed once, however many jobs ask at the same moment, and the new pair is stored", async () => {
    const { ready, calls, rows } = setUp({ accessToken: "shpat_a", refreshToken: "shprt_a", expires: new Date(T0 + 60_000) });
    const answers = await Promise.all(Array.from({ length: 20 }, () => ready(SHOP, ID)));
    expect(calls).toEqual(["refresh:shprt_a"]);
    expect(new Set(answers.map((a) => (a.ok ? a.session.accessToken : a.reason)))).toEqual(new Set(["shpat_new1"]));
    expect(rows.get(ID)!.refreshToken).toBe("shprt_new1");
    // The next look-up finds the stored pair good: no second refresh.
    expect(await ready(SHOP, ID)).toMatchObject({ ok: true, renewed: null });
    expect(calls).toHaveLength(1);
  });

  it("a refresh token Shopify refuses (4xx) means the merchant must open the app; no answer (5xx, network) is thrown to be retried", async () => {
    const expired = { accessToken: "shpat_a", refreshToken: "shprt_a", expires: new Date(T0 - 1) };
    const refused = setUp(expired, { refresh: async () => Promise.reject(httpError(400)) });
    expect(await refused.ready(SHOP, ID)).toEqual({ ok: false, cause: "refused", reason: TOKEN_REFUSED });
    const down = setUp(expired, { refresh: async () => Promise.reject(httpError(503)) });
    await expect(down.ready(SHOP, ID)).rejects.toThrow("HTTP 503");
    const lost = setUp(expired, { refresh: async () => Promise.reject(new TypeError("fetch failed")) });
    await expect(lost.ready(SHOP, ID)).rejects.toThrow("fetch failed");
  });

  it("no session, or an expired one without a refresh token", async () => {
    const none = setUp({});
    none.rows.clear();
    expect(await none.ready(SHOP, ID)).toMatchObject({ ok: false, cause: "not_installed" });
    expect(await setUp({ accessToken: "shpat_a", expires: new Date(T0 - 1) }).ready(SHOP, ID)).toMatchObject({ ok: false, cause: "refused" });
  });

  it("a non-expiring token is exchanged for an expiring pair; when that fails it is used as it is, and tried again only after a while", async () => {
    const { ready, calls, rows } = setUp({ accessToken: "shpat_legacy" });
    expect(await ready(SHOP, ID)).toMatchObject({ ok: true, renewed: "migrated", session: { accessToken: "shpat_new1" } });
    // The pair's expiry is stored with it (an hour from the exchange), not left out.
    expect(rows.get(ID)!.expires).toEqual(new Date(T0 + 3_600_000));
    expect(calls).toEqual(["migrate:shpat_legacy"]);

    const failing = setUp({ accessToken: "shpat_legacy" }, { migrate: async () => Promise.reject(httpError(503)) });
    expect(await failing.ready(SHOP, ID)).toMatchObject({ ok: true, renewed: null, session: { accessToken: "shpat_legacy" } });
    let attempts = 0;
    const counting = setUp({ accessToken: "shpat_legacy" }, { migrate: async () => (attempts++, Promise.reject(httpError(503))) });
    await counting.ready(SHOP, ID);
    await counting.ready(SHOP, ID);
    expect(attempts).toBe(1);
    counting.advance(MIGRATION_RETRY_MS);
    await counting.ready(SHOP, ID);
    expect(attempts).toBe(2);
  });
});
