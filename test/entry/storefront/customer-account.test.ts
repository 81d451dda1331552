// The customer account extension's backend route, /api/customer-account/links:
// session tokens signed like Shopify signs them, the real sandbox service, and
// the extension's own client code (extensions/customer-account/src/links-api.ts).
import { adminApi } from "./support/admin-api-stub";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action, loader } from "../../../app/routes/api.customer-account.links";
import { loader as proxyLoader } from "../../../app/routes/proxy.links";
import { MESSAGES } from "../../../app/domains/storefront/share-links.server";
import type { ShareLinksAnswer } from "../../../app/domains/storefront/share-links-contract";
import { fetchShareLinks } from "../../../extensions/customer-account/src/links-api";
import type { SandboxHandle } from "../../../sandbox/server";
import { startTestSandbox } from "../../support/pipeline";
import { customerAccountRequest, EXTENSION_ORIGIN, proxyRequest, respond } from "./support/requests";
import { CUSTOMERS, resetWorld, serviceOperations, setUpShop } from "./support/world";

const { alice, nina } = CUSTOMERS;

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

const ask = (request: Request) => respond(request.method === "GET" ? loader : action, request);

describe("customer account links route", () => {
  it("answers a valid session token with that customer's links, with CORS headers for the extension", async () => {
    await setUpShop(sandbox);

    const response = await ask(await customerAccountRequest({ customerId: alice.id }));

    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = (await response.json()) as ShareLinksAnswer;
    expect(body.status).toBe("ok");
    if (body.status !== "ok") return;
    expect(body.ambassador).toMatchObject({ email: alice.email, balanceMoney: "12.00", pointName: "points" });
    expect(body.links.map((link) => link.url)).toEqual([`${sandbox.baseUrl}/s/ALICE10`, `${sandbox.baseUrl}/s/ALICEPTS`]);
    // The customer is the token's `sub`, looked up in the token's shop (`dest`).
    expect(adminApi.calls.map((call) => [call.shop, call.variables.id])).toEqual([
      ["referral-demo.myshopify.com", `gid://shopify/Customer/${alice.id}`],
    ]);
  });

  it("reads the shop from a dest given as an https URL as well", async () => {
    await setUpShop(sandbox);
    const response = await ask(
      await customerAccountRequest({ customerId: alice.id, claims: { dest: "https://referral-demo.myshopify.com" } }),
    );
    expect(((await response.json()) as ShareLinksAnswer).status).toBe("ok");
  });

  it("refuses a token signed with another secret (401) and asks no one anything", async () => {
    await setUpShop(sandbox);
    const response = await ask(await customerAccountRequest({ customerId: alice.id, secret: "someone-elses-secret" }));
    expect(response.status).toBe(401);
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });

  it("refuses an expired token (401)", async () => {
    await setUpShop(sandbox);
    const now = Math.floor(Date.now() / 1000);
    const response = await ask(await customerAccountRequest({ customerId: alice.id, claims: { exp: now - 60, iat: now - 360 } }));
    expect(response.status).toBe(401);
    expect(adminApi.calls).toEqual([]);
  });

  it("refuses a request without a token (401)", async () => {
    await setUpShop(sandbox);
    const request = new Request(`${process.env.SHOPIFY_APP_URL}/api/customer-account/links`, {
      headers: { Origin: EXTENSION_ORIGIN },
    });
    expect((await ask(request)).status).toBe(401);
  });

  it("answers the browser's CORS preflight with 204 and the headers the extension needs", async () => {
    const preflight = new Request(`${process.env.SHOPIFY_APP_URL}/api/customer-account/links`, {
      method: "OPTIONS",
      headers: {
        Origin: EXTENSION_ORIGIN,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    const response = await ask(preflight);
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
    expect(response.headers.get("Access-Control-Max-Age")).toBe("7200");
  });

  it("answers a token without a customer as a guest", async () => {
    await setUpShop(sandbox);
    const response = await ask(await customerAccountRequest({ customerId: null }));
    expect(await response.json()).toEqual({ status: "guest" });
    expect(adminApi.calls).toEqual([]);
  });

  it("keeps to the token's shop: a token of a shop without a connection gets 'not available'", async () => {
    await setUpShop(sandbox); // referral-demo is connected, another-shop is not
    const response = await ask(await customerAccountRequest({ customerId: alice.id, store: "another-shop" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "unavailable", message: MESSAGES.unavailable });
    expect(serviceOperations(sandbox)).toEqual([]);
  });

  it("enrols a new customer when the shop enrols automatically", async () => {
    await setUpShop(sandbox, { autoEnrol: true, newAmbassadorGroup: "1" });
    const body = (await (await ask(await customerAccountRequest({ customerId: nina.id }))).json()) as ShareLinksAnswer;
    expect(body.status === "ok" && body.ambassador.email).toBe(nina.email);
    expect(sandbox.ledger().ambassadors.find((a) => a.email === nina.email)).toMatchObject({ uid: nina.id, groups: ["1"] });
  });

  it("shares one cache with the storefront proxy: the second surface asks the service nothing", async () => {
    await setUpShop(sandbox);
    await respond(proxyLoader, await proxyRequest({ customerId: alice.id }));
    const requests = serviceOperations(sandbox).length;

    const response = await ask(await customerAccountRequest({ customerId: alice.id }));

    expect(((await response.json()) as ShareLinksAnswer).status).toBe("ok");
    expect(serviceOperations(sandbox).length).toBe(requests);
    expect(adminApi.calls).toHaveLength(1);
  });
});

describe("the extension's client (links-api.ts) against the route", () => {
  // What the extension's fetch reaches: the route, as Remix would call it.
  const routeFetch = async (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("Origin", EXTENSION_ORIGIN);
    return ask(request);
  };
  const tokenFor = (customerId: string, secret?: string) => async () => {
    const request = await customerAccountRequest({ customerId, secret });
    return request.headers.get("Authorization")!.replace("Bearer ", "");
  };

  it("gets the links with the session token and reads them", async () => {
    await setUpShop(sandbox);
    const state = await fetchShareLinks({ appUrl: `${process.env.SHOPIFY_APP_URL}/`, getToken: tokenFor(alice.id), fetch: routeFetch });
    expect(state).toEqual({
      kind: "ok",
      ambassador: expect.objectContaining({ balanceMoney: "12.00", pointName: "points" }),
      links: [
        expect.objectContaining({ campaignName: "Friends & Family", url: `${sandbox.baseUrl}/s/ALICE10`, socialEnabled: true }),
        expect.objectContaining({ campaignName: "Points Club", url: `${sandbox.baseUrl}/s/ALICEPTS` }),
      ],
    });
  });

  it("reads a not-enrolled customer's reason from the route", async () => {
    await setUpShop(sandbox);
    const state = await fetchShareLinks({ appUrl: process.env.SHOPIFY_APP_URL!, getToken: tokenFor(nina.id), fetch: routeFetch });
    expect(state).toEqual({ kind: "not_enrolled", reason: "not_member" });
  });

  it("turns a refused token, a failing token source and a broken connection into an error state", async () => {
    await setUpShop(sandbox);
    const appUrl = process.env.SHOPIFY_APP_URL!;
    expect(await fetchShareLinks({ appUrl, getToken: tokenFor(alice.id, "forged"), fetch: routeFetch })).toEqual({ kind: "error" });
    const noToken = async () => {
      throw new Error("no session token");
    };
    expect(await fetchShareLinks({ appUrl, getToken: noToken, fetch: routeFetch })).toEqual({ kind: "error" });
    const offline = async () => {
      throw new TypeError("fetch failed");
    };
    expect(await fetchShareLinks({ appUrl, getToken: tokenFor(alice.id), fetch: offline })).toEqual({ kind: "error" });
  });

  it("asks nothing when the bundle was built without the app's address", async () => {
    let asked = 0;
    const counting = async (url: string, init: RequestInit) => {
      asked += 1;
      return routeFetch(url, init);
    };
    expect(await fetchShareLinks({ appUrl: "", getToken: tokenFor(alice.id), fetch: counting })).toEqual({ kind: "error" });
    expect(asked).toBe(0);
  });
});
