// The POS customer-details block's route, /api/pos/customer: the extension's
// own client code (extensions/pos-referral/src/pos-api.ts) against the route,
// POS session tokens signed like Shopify signs them, the real sandbox service
// and a stand-in of the shop's Admin API (the customer's email).
import { adminApi } from "../storefront/support/admin-api-stub";

import { getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action, loader } from "../../../app/routes/api.pos.customer";
import prisma from "../../../app/wiring/db.server";
import { customerLinks, enrolCustomer, type AppCaller } from "../../../extensions/pos-referral/src/pos-api";
import type { SandboxHandle } from "../../../sandbox/server";
import { startTestSandbox } from "../../support/pipeline";
import { respond, SHOP, STORE } from "../storefront/support/requests";
import { CUSTOMERS, resetWorld, sandboxAmbassador, serviceOperations, setUpShop } from "../storefront/support/world";

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

const posToken = async (store = STORE, secret = process.env.SHOPIFY_API_SECRET!) =>
  (await getJwt(store, process.env.SHOPIFY_API_KEY!, secret, { iss: `https://${store}.myshopify.com/admin`, dest: `https://${store}.myshopify.com`, sub: "548380009" })).token;

/** The extension's calls, answered by the route's loader and action in this process. */
const caller = (token: () => Promise<string>): AppCaller => ({
  appUrl: process.env.SHOPIFY_APP_URL!,
  getToken: token,
  fetch: (url, init) => {
    const request = new Request(url, init);
    return respond(request.method === "GET" ? loader : action, request);
  },
});

describe("the POS customer-details route", () => {
  it("shows an ambassador's own share links, looked up in the token's shop", async () => {
    await setUpShop(sandbox);
    const answer = await customerLinks(caller(() => posToken()), Number(alice.id));
    expect(answer.status).toBe("ok");
    expect(answer.status === "ok" && answer.links.map((link) => link.url)).toEqual([`${sandbox.baseUrl}/s/ALICE10`, `${sandbox.baseUrl}/s/ALICEPTS`]);
    expect(adminApi.calls.map((call) => [call.shop, call.variables.id])).toEqual([[SHOP, `gid://shopify/Customer/${alice.id}`]]);
  });

  it("lets staff enrol a customer who is not an ambassador, even where the shop does not enrol automatically", async () => {
    await setUpShop(sandbox, { autoEnrol: false });
    await prisma.friendOffer.create({ data: { shop: SHOP, campaignUid: "1001" } });
    const pos = caller(() => posToken());
    expect(await customerLinks(pos, nina.id)).toMatchObject({ status: "not_enrolled", reason: "not_member" });
    expect(sandboxAmbassador(sandbox, nina.email)).toBeUndefined();

    const enrolled = await enrolCustomer(pos, nina.id);

    expect(enrolled.status === "ok" && enrolled.ambassador.email).toBe(nina.email);
    expect(sandboxAmbassador(sandbox, nina.email)).toMatchObject({ uid: nina.id });
    // The block asks again right after: the answer kept from before enrolling is not shown.
    expect((await customerLinks(pos, nina.id)).status).toBe("ok");
    // Her share code is queued for the friend's offer, as for any new ambassador.
    const jobs = await prisma.job.findMany({ where: { shop: SHOP, kind: "offer.sync" } });
    expect(jobs.map((job) => JSON.parse(job.payload))).toEqual([{ campaignUid: "1001", email: nina.email }]);
  });

  it("refuses a forged token (401), a shop without the app (403) and a customer id that is none (400), asking no one", async () => {
    await setUpShop(sandbox);
    const ask = async (token: string, query = `customerId=${alice.id}`) =>
      respond(loader, new Request(`${process.env.SHOPIFY_APP_URL}/api/pos/customer?${query}`, { headers: { Authorization: `Bearer ${token}` } }));
    expect((await ask(await posToken(STORE, "someone-elses-secret"))).status).toBe(401);
    expect((await ask(await posToken("another-shop"))).status).toBe(403);
    expect((await ask(await posToken(), "customerId=gid://shopify/Customer/7001")).status).toBe(400);
    expect(adminApi.calls).toEqual([]);
    expect(serviceOperations(sandbox)).toEqual([]);
  });
});
