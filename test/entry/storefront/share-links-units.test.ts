// Pure pieces of the share links: who is asking, which links are shown, the cache.
import { describe, expect, it } from "vitest";
import type { CampaignLink, Money } from "../../../app/platform/referral-api";
import { shareLinksOf } from "../../../app/domains/storefront/share-links.server";
import { commaList } from "../../../app/platform/text/comma-list";
import { proxyCustomer, sessionTokenCustomer, sessionTokenShop } from "../../../app/domains/storefront/signed-customer";
import { createTtlCache } from "../../../app/platform/cache/ttl-cache";
import { readLinksAnswer } from "../../../extensions/customer-account/src/links-api";

describe("signed customer", () => {
  const query = (text: string) => new URLSearchParams(text);

  it.each([
    ["logged_in_customer_id=7001&shop=x", { kind: "customer", customerId: "7001" }],
    ["logged_in_customer_id=&shop=x", { kind: "guest" }],
    ["shop=x", { kind: "guest" }],
    ["logged_in_customer_id=%207001%20", { kind: "customer", customerId: "7001" }],
    ["logged_in_customer_id=7001&logged_in_customer_id=7002", { kind: "invalid", reason: "logged_in_customer_id is given more than once" }],
    ["logged_in_customer_id=0", { kind: "invalid", reason: "logged_in_customer_id is not a customer id" }],
    ["logged_in_customer_id=gid://shopify/Customer/7001", { kind: "invalid", reason: "logged_in_customer_id is not a customer id" }],
    ["logged_in_customer_id=7001;7002", { kind: "invalid", reason: "logged_in_customer_id is not a customer id" }],
  ])("reads the app proxy's %s", (text, expected) => {
    expect(proxyCustomer(query(text))).toEqual(expected);
  });

  it.each([
    ["gid://shopify/Customer/7001", { kind: "customer", customerId: "7001" }],
    [undefined, { kind: "guest" }],
    ["", { kind: "guest" }],
    ["7001", { kind: "invalid", reason: "the session token's sub is not a customer" }],
    ["gid://shopify/StaffMember/7001", { kind: "invalid", reason: "the session token's sub is not a customer" }],
    [7001, { kind: "invalid", reason: "the session token's sub is not a customer" }],
  ])("reads a session token's sub %s", (sub, expected) => {
    expect(sessionTokenCustomer(sub)).toEqual(expected);
  });

  it.each([
    ["referral-demo.myshopify.com", "referral-demo.myshopify.com"],
    ["https://referral-demo.myshopify.com", "referral-demo.myshopify.com"],
    ["https://Referral-Demo.myshopify.com/", "referral-demo.myshopify.com"],
    ["https://evil.example", null],
    ["http://referral-demo.myshopify.com", null],
    ["referral-demo.myshopify.com.evil.example", null],
    [undefined, null],
  ])("reads a session token's dest %s", (dest, expected) => {
    expect(sessionTokenShop(dest)).toBe(expected);
  });
});

describe("links shown", () => {
  const link = (uid: string, extra: Partial<CampaignLink> = {}): CampaignLink => ({
    campaignUid: uid,
    campaignName: `Campaign ${uid}`,
    campaignDescription: null,
    sandbox: false,
    private: false,
    socialEnabled: false,
    url: `https://refer.example/s/CODE${uid}`,
    totalMoneyEarned: "1.50" as Money,
    totalPointsEarned: "150.00" as Money,
    uniqueReferrals: null,
    stats: null,
    extra: {},
    ...extra,
  });

  it("keeps the tracked campaigns in the service's order", () => {
    const links = [link("1"), link("2"), link("3")];
    expect(shareLinksOf(links, ["3", "1"]).map((l) => l.campaignUid)).toEqual(["1", "3"]);
  });

  it("shows everything but test campaigns when none is tracked", () => {
    const links = [link("1"), link("2", { sandbox: true }), link("3", { private: true })];
    expect(shareLinksOf(links, []).map((l) => l.campaignUid)).toEqual(["1", "3"]);
  });

  it("drops links that are not web URLs or have no URL", () => {
    const links = [link("1", { url: "javascript:alert(1)" }), link("2", { url: null }), link("3", { url: "http://ok.example/x" })];
    expect(shareLinksOf(links, []).map((l) => l.url)).toEqual(["http://ok.example/x"]);
  });

  it("writes whole points without decimals and defaults missing texts", () => {
    const [shown] = shareLinksOf([link("1", { campaignName: null, totalMoneyEarned: null })], []);
    expect(shown).toEqual({
      campaignUid: "1",
      campaignName: "",
      description: "",
      url: "https://refer.example/s/CODE1",
      socialEnabled: false,
      totalMoneyEarned: "0.00",
      totalPointsEarned: "150",
    });
  });

  it("reads the shop's campaign list", () => {
    expect(commaList(" 1001, ,1003 ")).toEqual(["1001", "1003"]);
    expect(commaList("")).toEqual([]);
  });
});

describe("ttl cache", () => {
  function clock() {
    let now = 1_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  }

  it("keeps a value for its TTL, then loads again", async () => {
    const time = clock();
    const cache = createTtlCache<number>({ ttlMs: 100, now: time.now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.getOrLoad("k", load)).toBe(1);
    time.advance(99);
    expect(await cache.getOrLoad("k", load)).toBe(1);
    time.advance(1);
    expect(await cache.getOrLoad("k", load)).toBe(2);
  });

  it("shares one load between simultaneous callers", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1_000 });
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      loads++;
      await gate;
      return "value";
    };
    const all = Promise.all([cache.getOrLoad("k", load), cache.getOrLoad("k", load), cache.getOrLoad("k", load)]);
    release();
    expect(await all).toEqual(["value", "value", "value"]);
    expect(loads).toBe(1);
  });

  it("stores only what `keep` accepts and nothing from a failed load", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1_000 });
    await cache.getOrLoad("a", async () => "skip me", (v) => v !== "skip me");
    expect(cache.peek("a")).toBeUndefined();
    await expect(cache.getOrLoad("b", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(cache.peek("b")).toBeUndefined();
    expect(await cache.getOrLoad("b", async () => "up")).toBe("up");
  });

  it("does not store a load that a delete overtook", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1_000 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = cache.getOrLoad("shop|1", async () => {
      await gate;
      return "stale";
    });
    cache.deletePrefix("shop|");
    release();
    expect(await pending).toBe("stale");
    expect(cache.peek("shop|1")).toBeUndefined();
  });

  it("evicts the oldest entries beyond maxEntries", async () => {
    const cache = createTtlCache<number>({ ttlMs: 1_000, maxEntries: 2 });
    for (const [key, value] of [["a", 1], ["b", 2], ["c", 3]] as const) await cache.getOrLoad(key, async () => value);
    expect(cache.size).toBe(2);
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.peek("c")).toBe(3);
  });
});

describe("the extension reads answers defensively", () => {
  it.each([
    [503, { status: "error", message: "x" }, { kind: "error" }],
    [200, null, { kind: "error" }],
    [200, { status: "surprise" }, { kind: "error" }],
    [200, { status: "guest" }, { kind: "guest" }],
    [200, { status: "unavailable", message: "Off" }, { kind: "unavailable" }],
    [200, { status: "not_enrolled", message: "Join us" }, { kind: "not_enrolled", reason: "not_member" }],
    [200, { status: "not_enrolled", reason: "no_email" }, { kind: "not_enrolled", reason: "no_email" }],
    [200, { status: "not_enrolled", reason: "inactive" }, { kind: "not_enrolled", reason: "inactive" }],
    [200, { status: "not_enrolled", reason: "toString" }, { kind: "not_enrolled", reason: "not_member" }],
  ])("status %s with %j", (status, body, expected) => {
    expect(readLinksAnswer(status, body)).toEqual(expected);
  });

  it("drops links that are not web URLs and defaults missing numbers", () => {
    const state = readLinksAnswer(200, {
      status: "ok",
      ambassador: { uniqueReferrals: "n/a" },
      links: [{ url: "javascript:alert(1)" }, { url: "https://ok.example/s/A", campaignName: "A", socialEnabled: "1" }, null],
    });
    expect(state).toEqual({
      kind: "ok",
      ambassador: { balanceMoney: "0.00", balancePoints: "0", moneyPaid: "0.00", pointsPaid: "0", uniqueReferrals: 0, pointName: null },
      links: [
        { campaignName: "A", description: "", url: "https://ok.example/s/A", socialEnabled: false, totalMoneyEarned: "0.00", totalPointsEarned: "0" },
      ],
    });
  });
});
