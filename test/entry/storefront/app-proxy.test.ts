// The app proxy route /apps/referrals/links (arrives as {app}/proxy/links):
// real signed requests, the real sandbox service over HTTP, a real database;
// only the shop's Admin GraphQL customer lookup is a stand-in.
import { adminApi } from "./support/admin-api-stub";

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { loader } from "../../../app/routes/proxy.links";
import { MESSAGES } from "../../../app/domains/storefront/share-links.server";
import { SHARE_LINKS_TTL_MS } from "../../../app/wiring/storefront-context.server";
import type { ShareLinksAnswer } from "../../../app/domains/storefront/share-links-contract";
import type { SandboxHandle } from "../../../sandbox/server";
import { artifactsDir } from "../../support/browser";
import { rotateSandboxToken, startTestSandbox } from "../../support/pipeline";
import { proxyRequest, respond, SHOP, signProxyQuery } from "./support/requests";
import { CUSTOMERS, OTHER_SHOP, resetWorld, sandboxAmbassador, serviceOperations, setUpShop } from "./support/world";
import { sandboxClient } from "../../support/sandbox-client";

const { alice, bob, nina, phoneOnly } = CUSTOMERS;

let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await resetWorld(sandbox);
});

const ask = (request: Request) => respond(loader, request);

async function answerOf(response: Response): Promise<ShareLinksAnswer> {
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return (await response.json()) as ShareLinksAnswer;
}

const adminLookups = () => adminApi.calls.map((call) => call.variables.id);

describe("app proxy: signature", () => {
  it("answers a signed request for a signed-in ambassador with their links, balances and point name", async () => {
    await setUpShop(sandbox);

    const response = await ask(await proxyRequest({ customerId: alice.id }));

    expect(response.status).toBe(200);
    // One customer's data: no shared cache (Shopify's proxy, a CDN) may keep it.
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await answerOf(response);
    expect(body).toEqual({
      status: "ok",
      ambassador: {
        firstName: "Alice",
        email: "alice@example.com",
        balanceMoney: "12.00",
        balancePoints: "0",
        moneyPaid: "0.00",
        pointsPaid: "0",
        uniqueReferrals: expect.any(Number),
        pointName: "points",
      },
      // The shop tracks 1001 and 1003: only those campaigns' links are shown.
      links: [
        {
          campaignUid: "1001",
          campaignName: "Friends & Family",
          description: "Friends get 10% off; you earn 10% of their first order and 5% of later ones.",
          url: `${sandbox.baseUrl}/s/ALICE10`,
          socialEnabled: true,
          totalMoneyEarned: "12.00",
          totalPointsEarned: "0",
        },
        {
          campaignUid: "1003",
          campaignName: "Points Club",
          description: "50 points for a referral, then 2% of every later order in points.",
          url: `${sandbox.baseUrl}/s/ALICEPTS`,
          socialEnabled: true,
          totalMoneyEarned: "0.00",
          totalPointsEarned: "0",
        },
      ],
    });

    // The email came from the shop's Admin API, asked with the offline token for the signed customer.
    expect(adminApi.calls).toEqual([
      expect.objectContaining({
        shop: SHOP,
        apiVersion: "2026-10",
        accessToken: "shpat_test_token",
        variables: { id: `gid://shopify/Customer/${alice.id}` },
      }),
    ]);
    expect(serviceOperations(sandbox).sort()).toEqual(["ambassador/get", "company/get"]);
  });

  it("shows every campaign but the service's test ones while the shop has chosen none", async () => {
    await setUpShop(sandbox, { campaignUids: "" });
    const body = await answerOf(await ask(await proxyRequest({ customerId: alice.id })));
    expect(body.status === "ok" && body.links.map((l) => l.campaignUid)).toEqual(["1001", "1002", "1003"]);
  });

  it("refuses a forged signature with 400 and asks no one anything", async () => {
    await setUpShop(sandbox);
    const response = await ask(await proxyRequest({ customerId: alice.id, secret: "not-the-app-secret" }));
    expect(response.status).toBe(400);
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });

  it("refuses a request whose customer id was changed after signing (400)", async () => {
    await setUpShop(sandbox);
    const signed = new URL((await proxyRequest({ customerId: alice.id })).url);
    signed.searchParams.set("logged_in_customer_id", bob.id);
    const response = await ask(new Request(signed));
    expect(response.status).toBe(400);
    expect(adminApi.calls).toEqual([]);
  });

  it("refuses a request without a signature (400)", async () => {
    await setUpShop(sandbox);
    const signed = new URL((await proxyRequest({ customerId: alice.id })).url);
    signed.searchParams.delete("signature");
    expect((await ask(new Request(signed))).status).toBe(400);
  });

  it("refuses a validly signed request whose timestamp is older than the library's 90 s tolerance (400)", async () => {
    await setUpShop(sandbox);
    // Signed two minutes ago, e.g. a captured request replayed later.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() - 120_000);
    const replayed = await proxyRequest({ customerId: alice.id });
    vi.useRealTimers();

    const response = await ask(replayed);
    expect(response.status).toBe(400);
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });
});

describe("app proxy: who is asking", () => {
  it("answers a guest (empty logged_in_customer_id) without asking the Admin API or the service", async () => {
    await setUpShop(sandbox);
    const response = await ask(await proxyRequest({ customerId: "" }));
    expect(response.status).toBe(200);
    expect(await answerOf(response)).toEqual({ status: "guest" });
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });

  it("treats a request without logged_in_customer_id as a guest", async () => {
    await setUpShop(sandbox);
    expect(await answerOf(await ask(await proxyRequest()))).toEqual({ status: "guest" });
  });

  it("ignores another customer's id and email passed as extra parameters, even when signed", async () => {
    await setUpShop(sandbox);
    // GIVEN Alice is signed in and the page adds Bob's id and email to the proxy URL
    // (Shopify forwards and signs whatever query the page sent)
    const request = await proxyRequest({
      customerId: alice.id,
      extra: { customer_id: bob.id, customerId: bob.id, email: bob.email, customer_email: bob.email, id: bob.id },
    });

    // WHEN the route answers
    const body = await answerOf(await ask(request));

    // THEN it is Alice's data, found through Alice's id only
    expect(body.status).toBe("ok");
    expect(body.status === "ok" && body.ambassador.email).toBe(alice.email);
    expect(body.status === "ok" && body.links.every((link) => link.url.includes("ALICE"))).toBe(true);
    expect(adminLookups()).toEqual([`gid://shopify/Customer/${alice.id}`]);
  });

  it("refuses logged_in_customer_id given twice, even with a valid signature over both values (400)", async () => {
    await setUpShop(sandbox);
    const url = new URL((await proxyRequest({ customerId: alice.id })).url);
    url.searchParams.append("logged_in_customer_id", bob.id);
    url.searchParams.set("signature", signProxyQuery(url.searchParams));

    const response = await ask(new Request(url));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: "error", message: "logged_in_customer_id is given more than once" });
    expect(adminApi.calls).toEqual([]);
  });

  it("refuses a logged_in_customer_id that is not a customer id (400)", async () => {
    await setUpShop(sandbox);
    const response = await ask(await proxyRequest({ customerId: "alice@example.com" }));
    expect(response.status).toBe(400);
    expect(adminApi.calls).toEqual([]);
  });
});

describe("app proxy: enrolment", () => {
  it("with automatic enrolment off, tells a customer who is not an ambassador so and creates nobody", async () => {
    await setUpShop(sandbox, { autoEnrol: false });
    const response = await ask(await proxyRequest({ customerId: nina.id }));
    expect(response.status).toBe(200);
    expect(await answerOf(response)).toEqual({ status: "not_enrolled", reason: "not_member", message: MESSAGES.notEnrolled });
    expect(serviceOperations(sandbox)).toContain("ambassador/get");
    expect(sandboxAmbassador(sandbox, nina.email)).toBeUndefined();
  });

  it("with automatic enrolment on, creates the ambassador in the shop's group and answers their new links", async () => {
    await setUpShop(sandbox, { autoEnrol: true, newAmbassadorGroup: "2" });

    const body = await answerOf(await ask(await proxyRequest({ customerId: nina.id })));

    expect(body.status).toBe("ok");
    if (body.status !== "ok") return;
    expect(body.ambassador).toMatchObject({ email: nina.email, firstName: "Nina", balanceMoney: "0.00", uniqueReferrals: 0 });
    expect(body.links.map((link) => link.campaignUid)).toEqual(["1001", "1003"]);
    const created = sandboxAmbassador(sandbox, nina.email);
    expect(created).toMatchObject({ uid: nina.id, first_name: "Nina", groups: ["2"] });
    // Its share links carry its own new short codes.
    expect(body.links[0].url).toBe(`${sandbox.baseUrl}/s/${created!.short_codes["1001"]}`);
  });

  it("with automatic enrolment on, leaves an existing ambassador as they are", async () => {
    await setUpShop(sandbox, { autoEnrol: true, newAmbassadorGroup: "2" });
    const before = sandboxAmbassador(sandbox, alice.email);
    const body = await answerOf(await ask(await proxyRequest({ customerId: alice.id })));
    expect(body.status === "ok" && body.ambassador.balanceMoney).toBe("12.00");
    expect(sandboxAmbassador(sandbox, alice.email)).toEqual(before);
  });

  it("tells a customer without an email address to add one, without asking the service", async () => {
    await setUpShop(sandbox, { autoEnrol: true });
    const body = await answerOf(await ask(await proxyRequest({ customerId: phoneOnly.id })));
    expect(body).toEqual({ status: "not_enrolled", reason: "no_email", message: MESSAGES.noEmail });
    expect(serviceOperations(sandbox)).not.toContain("ambassador/get");
  });

  it("shows an ambassador's links only to a customer whose email Shopify verified: another account with that email is asked to confirm it, and nobody is enrolled", async () => {
    // GIVEN a second account signed up with Alice's email, never confirmed
    await setUpShop(sandbox, { autoEnrol: true });
    adminApi.addCustomer("7009", { email: alice.email, firstName: "Mallory", verifiedEmail: false });
    adminApi.addCustomer("7010", { email: "new.unconfirmed@example.com", firstName: "Uma", verifiedEmail: false });
    // WHEN it asks for its links
    const body = await answerOf(await ask(await proxyRequest({ customerId: "7009" })));
    // THEN it gets a polite request to confirm its email, nothing of Alice's
    expect(body).toEqual({ status: "not_enrolled", reason: "unverified_email", message: MESSAGES.unverifiedEmail });
    expect(JSON.stringify(body)).not.toMatch(/ALICE10|12\.00/);
    // and an unconfirmed customer is not enrolled automatically either
    expect(await answerOf(await ask(await proxyRequest({ customerId: "7010" })))).toMatchObject({ status: "not_enrolled", reason: "not_member" });
    expect(sandboxAmbassador(sandbox, "new.unconfirmed@example.com")).toBeUndefined();
    // Alice herself still sees hers
    expect(await answerOf(await ask(await proxyRequest({ customerId: alice.id })))).toMatchObject({ status: "ok" });
    // and so does an unconfirmed account the service names by id as the ambassador
    await sandboxClient(sandbox).updateAmbassador({ email: alice.email, newUid: "7011" });
    adminApi.addCustomer("7011", { email: alice.email, firstName: "Alice", verifiedEmail: false });
    expect(await answerOf(await ask(await proxyRequest({ customerId: "7011" })))).toMatchObject({ status: "ok", ambassador: { email: alice.email } });
  });

  it("tells a deactivated ambassador that their referral account is not active", async () => {
    await setUpShop(sandbox);
    const client = sandboxClient(sandbox);
    await client.updateAmbassador({ email: bob.email, isDeactivated: true });
    const body = await answerOf(await ask(await proxyRequest({ customerId: bob.id })));
    expect(body).toEqual({ status: "not_enrolled", reason: "inactive", message: MESSAGES.inactive });
  });
});

describe("app proxy: cache", () => {
  it("answers a repeated view from the cache: no service request, no Admin API request, in milliseconds", async () => {
    await setUpShop(sandbox);
    // The service is slow today: every call takes 150 ms.
    sandbox.setFaults({ latencyMs: 150 });

    const timed = async () => {
      const request = await proxyRequest({ customerId: alice.id });
      const started = performance.now();
      const response = await ask(request);
      const ms = performance.now() - started;
      return { ms, body: await answerOf(response) };
    };

    const first = await timed();
    const requestsAfterFirst = serviceOperations(sandbox).length;
    const repeats = [];
    for (let i = 0; i < 10; i++) repeats.push(await timed());

    expect(first.body.status).toBe("ok");
    for (const repeat of repeats) expect(repeat.body).toEqual(first.body);
    // The sandbox's ledger saw no further request, and the shop's Admin API was asked once.
    expect(serviceOperations(sandbox).length).toBe(requestsAfterFirst);
    expect(adminApi.calls).toHaveLength(1);

    const cached = repeats.map((r) => r.ms).sort((a, b) => a - b);
    const median = cached[Math.floor(cached.length / 2)];
    expect(first.ms).toBeGreaterThanOrEqual(150);
    expect(median).toBeLessThan(50);
    writeTiming("slow-service", first.ms, cached);
  });

  it("is fast against a quick service too, and keeps answers per customer", async () => {
    await setUpShop(sandbox);
    const started = performance.now();
    const aliceFirst = await answerOf(await ask(await proxyRequest({ customerId: alice.id })));
    const firstMs = performance.now() - started;
    const cached: number[] = [];
    for (let i = 0; i < 10; i++) {
      const request = await proxyRequest({ customerId: alice.id });
      const t = performance.now();
      await ask(request);
      cached.push(performance.now() - t);
    }
    writeTiming("quick-service", firstMs, cached.sort((a, b) => a - b));

    // Bob's view is his own: a new lookup, not Alice's cached answer.
    const bobBody = await answerOf(await ask(await proxyRequest({ customerId: bob.id })));
    expect(aliceFirst.status === "ok" && aliceFirst.ambassador.email).toBe(alice.email);
    expect(bobBody.status === "ok" && bobBody.ambassador.email).toBe(bob.email);
    expect(serviceOperations(sandbox).filter((op) => op === "ambassador/get")).toHaveLength(2);
  });

  it("asks again once the answer is older than the TTL", async () => {
    await setUpShop(sandbox);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await ask(await proxyRequest({ customerId: alice.id }));
      vi.setSystemTime(Date.now() + SHARE_LINKS_TTL_MS + 1);
      await ask(await proxyRequest({ customerId: alice.id }));
    } finally {
      vi.useRealTimers();
    }
    expect(serviceOperations(sandbox).filter((op) => op === "ambassador/get")).toHaveLength(2);
  });

  it("keeps a not-enrolled answer too, but never a failure", async () => {
    await setUpShop(sandbox);
    await ask(await proxyRequest({ customerId: nina.id }));
    await ask(await proxyRequest({ customerId: nina.id }));
    expect(serviceOperations(sandbox).filter((op) => op === "ambassador/get")).toHaveLength(1);

    sandbox.setFaults({ failNext: 1, operations: ["ambassador/get"] });
    const failed = await ask(await proxyRequest({ customerId: alice.id }));
    expect(failed.status).toBe(503);
    expect(failed.headers.get("Retry-After")).toBe("30");
    expect(await answerOf(failed)).toEqual({ status: "error", message: MESSAGES.error });

    const next = await answerOf(await ask(await proxyRequest({ customerId: alice.id })));
    expect(next.status).toBe("ok");
  });

  it("makes one service request for simultaneous views of the same customer", async () => {
    await setUpShop(sandbox);
    sandbox.setFaults({ latencyMs: 50 });
    const requests = await Promise.all([1, 2, 3, 4, 5].map(() => proxyRequest({ customerId: alice.id })));
    const bodies = await Promise.all(requests.map(async (request) => answerOf(await ask(request))));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(serviceOperations(sandbox).filter((op) => op === "ambassador/get")).toHaveLength(1);
    expect(adminApi.calls).toHaveLength(1);
  });
});

describe("app proxy: the shop's connection", () => {
  it("answers 'not available' (200) for a shop that has not connected the referral service", async () => {
    await setUpShop(sandbox, { connected: false });
    const response = await ask(await proxyRequest({ customerId: alice.id }));
    expect(response.status).toBe(200);
    expect(await answerOf(response)).toEqual({ status: "unavailable", message: MESSAGES.unavailable });
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });

  it("answers 'not available' for a shop the app knows nothing about, and never uses another shop's connection", async () => {
    await setUpShop(sandbox); // referral-demo is connected...
    const response = await ask(await proxyRequest({ customerId: alice.id, store: "another-shop" }));
    // ...but the signed shop is another one.
    expect(await answerOf(response)).toEqual({ status: "unavailable", message: MESSAGES.unavailable });
    expect(serviceOperations(sandbox)).toEqual([]);
    expect(await prisma.shop.count({ where: { shop: OTHER_SHOP } })).toBe(0);
  });

  it("answers 'not available' when the app has no offline session for the shop any more", async () => {
    await setUpShop(sandbox, { installed: false });
    const body = await answerOf(await ask(await proxyRequest({ customerId: alice.id })));
    expect(body).toEqual({ status: "unavailable", message: MESSAGES.unavailable });
    expect(adminApi.calls).toEqual([]);
  });

  it("answers 'not available' when the service refuses the shop's credentials", async () => {
    await setUpShop(sandbox);
    await rotateSandboxToken(sandbox, "a-new-token");
    const body = await answerOf(await ask(await proxyRequest({ customerId: alice.id })));
    expect(body).toEqual({ status: "unavailable", message: MESSAGES.unavailable });
  });

  it("answers 503 'try again' when the shop's Admin API fails the customer lookup", async () => {
    await setUpShop(sandbox);
    adminApi.failure = "graphql";
    const response = await ask(await proxyRequest({ customerId: alice.id }));
    expect(response.status).toBe(503);
    expect(await answerOf(response)).toEqual({ status: "error", message: MESSAGES.error });
    expect(serviceOperations(sandbox)).not.toContain("ambassador/get");
  });
});

function writeTiming(name: string, firstMs: number, cachedMs: number[]): void {
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const file = path.join(artifactsDir, "proxy-cache-timing.json");
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    all = {};
  }
  all[name] = {
    firstMs: round(firstMs),
    cachedMedianMs: round(cachedMs[Math.floor(cachedMs.length / 2)]),
    cachedMaxMs: round(cachedMs[cachedMs.length - 1]),
    cachedRuns: cachedMs.length,
  };
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}
