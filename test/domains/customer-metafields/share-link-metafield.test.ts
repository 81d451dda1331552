import "../../entry/admin/browser-env";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { SHARE_LINK_METAFIELD_JOB } from "../../../app/domains/customer-metafields/job-kinds";
import { DEFAULT_SCOPES, getEnv } from "../../../app/wiring/env.server";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { sandboxAppEnv, startAppServer, type AppServer } from "../../entry/admin/app-server";
import { proxyRequest } from "../../entry/storefront/support/requests";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import type { StandInCustomer } from "../../support/standin-customers";
import { TEST_SHOP } from "../../support/shopify-requests";
import { sandboxClient } from "../../support/sandbox-client";

// The share link on the Shopify customer, through the production build with
// its worker in the process, the sandbox service over HTTP (its signed
// webhooks posted to the served app) and the Admin API stand-in over HTTP,
// which validates every document against Shopify's 2026-10 schema and keeps
// the customers' metafields.

const sandbox = useTestSandbox();
let shopify: ShopifyAdminStandIn;
let standIn: { origin: string; close(): Promise<void> };
let servers: AppServer[] = [];

beforeAll(async () => {
  shopify = new ShopifyAdminStandIn();
  standIn = await shopify.serve();
});
afterAll(() => standIn?.close());

beforeEach(async () => {
  shopify.customers.byId.clear();
  shopify.customerMetafields.byOwner.clear();
  shopify.calls = [];
  shopify.refused = [];
  shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), "write_customers"];
  await connectShop(sandbox, { campaignUids: "1001,1003" });
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { shareLinkMetafield: true, autoEnrol: true } });
});
afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
  // Every document the app sent was valid against the 2026-10 schema.
  expect(shopify.refused).toEqual([]);
});

async function startApp(worker = true): Promise<AppServer> {
  const server = await startAppServer({
    ...sandboxAppEnv(),
    WORKER_IN_PROCESS: String(worker),
    JOB_RETRY_BASE_MS: "100",
    SHOPIFY_ADMIN_API_ORIGIN: standIn.origin,
  });
  servers.push(server);
  return server;
}

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${servers.map((s) => s.output()).join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The storefront's links block asks, as Shopify's app proxy forwards it (signed query), for a signed-in customer. */
async function storefrontLooksUp(server: AppServer, customer: StandInCustomer) {
  const signed = new URL((await proxyRequest({ customerId: customer.id.split("/").pop()! })).url);
  const response = await fetch(`${server.origin}${signed.pathname}${signed.search}`, { headers: { Accept: "application/json" } });
  expect(response.status).toBe(200);
  return (await response.json()) as { status: string; links?: { url: string }[] };
}

const calls = (operation: string) => shopify.calls.filter((c) => c.operation === operation && c.outcome === "ok");
const shareLinkJobs = () => prisma.job.findMany({ where: { shop: TEST_SHOP, kind: SHARE_LINK_METAFIELD_JOB.name }, orderBy: { createdAt: "asc" } });
const metafieldsOf = (customer: StandInCustomer) => ({
  link: shopify.customerMetafields.valueOf(customer.id, "share_link"),
  code: shopify.customerMetafields.valueOf(customer.id, "share_code"),
});
const serviceClient = () => sandboxClient(sandbox);

/** The sandbox posts its signed webhooks of these types to the served app's receiving endpoint, as a merchant would set it up. */
async function subscribe(server: AppServer, events: string[]) {
  const { endpointId, secret } = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
  const response = await fetch(`${sandbox.baseUrl}/_sandbox/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${server.origin}/referral-webhooks/${endpointId}`, secret, events }),
  });
  expect(response.status).toBe(200);
}

describe("the share link on the customer", () => {
  it("a customer enrolled from the storefront gets the link and code once; a look-up finding the same link writes nothing", async () => {
    const app = await startApp();
    const nina = shopify.customers.add("nina@example.com");

    // WHEN Nina, signed in, opens the links block: the shop enrols customers automatically
    const answer = await storefrontLooksUp(app, nina);
    expect(answer.status).toBe("ok");

    // THEN a job writes her first link and its code on her Shopify customer
    await until("the metafields are written", () => metafieldsOf(nina).link !== null);
    const first = answer.links![0]!.url;
    expect(metafieldsOf(nina)).toEqual({ link: first, code: first.split("/").pop() });
    expect(calls("ReferralBridgeSetShareLink")).toHaveLength(1);
    await until("the job is done", async () => (await shareLinkJobs()).every((job) => job.status === "done"));
    console.log("stand-in customer after enrolment:", JSON.stringify({ customer: nina.id, metafields: shopify.customerMetafields.list(nina.id) }, null, 2));

    // WHEN another app process (its own answer cache) is asked again for her links
    const other = await startApp(false);
    expect((await storefrontLooksUp(other, nina)).status).toBe("ok");

    // THEN nothing is queued or written: the link is the one written
    expect(await shareLinkJobs()).toHaveLength(1);
    expect(calls("ReferralBridgeSetShareLink")).toHaveLength(1);
  }, 90_000);

  it("follows a changed link: another tracked campaign first writes the new link", async () => {
    const app = await startApp();
    const alice = shopify.customers.add("alice@example.com");
    await storefrontLooksUp(app, alice);
    await until("the first link is written", () => metafieldsOf(alice).code === "ALICE10");
    await until("its job is done", async () => (await shareLinkJobs()).every((job) => job.status === "done"));

    // WHEN the merchant tracks another campaign only, and Alice's links are looked up in a fresh process
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { campaignUids: "1003" } });
    await storefrontLooksUp(await startApp(false), alice);

    // THEN her customer carries that campaign's link
    await until("the new link is written", () => metafieldsOf(alice).code === "ALICEPTS");
    expect(metafieldsOf(alice).link).toMatch(/\/s\/ALICEPTS$/);
    expect(calls("ReferralBridgeSetShareLink")).toHaveLength(2);
  }, 90_000);

  it("a contact the service creates (its signed webhook) gets the link; deactivating the ambassador removes it", async () => {
    const app = await startApp();
    await subscribe(app, ["contact-created", "contact-status-updated"]);
    const omar = shopify.customers.add("omar@example.com");

    // WHEN the service enrols Omar (from anywhere: its own form, another app)
    await serviceClient().getAmbassador({ email: "omar@example.com", autoCreate: true, firstName: "Omar" });

    // THEN the contact-created webhook leads to his link on his Shopify customer
    await until("the metafields are written", () => metafieldsOf(omar).link !== null);
    expect(metafieldsOf(omar).link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]+$/);

    // WHEN the merchant deactivates him at the service (contact-status-updated: banned)
    await serviceClient().updateAmbassador({ email: "omar@example.com", isDeactivated: true });

    // THEN both fields are removed from his customer
    await until("the metafields are removed", () => metafieldsOf(omar).link === null && metafieldsOf(omar).code === null);
    expect(calls("ReferralBridgeDeleteShareLink")).toHaveLength(1);
    expect(shopify.customerMetafields.list(omar.id)).toEqual([]);
    // The job keeps what it did after Shopify answered: once it is done, its row says so.
    await until("the share link jobs are done", async () => (await shareLinkJobs()).every((job) => job.status === "done"));
    const row = await prisma.customerShareLink.findUniqueOrThrow({ where: { shop_email: { shop: TEST_SHOP, email: "omar@example.com" } } });
    expect(row).toMatchObject({ customerId: omar.id, link: null, code: null });
    const events = await prisma.serviceEvent.findMany({ where: { shop: TEST_SHOP }, select: { eventType: true, state: true } });
    expect(events).toEqual(expect.arrayContaining([{ eventType: "contact-status-updated", state: "processed" }]));
  }, 90_000);

  it("without write_customers nothing is written, the job fails saying what is missing, and the option is turned off", async () => {
    shopify.grantedScopes = DEFAULT_SCOPES.split(",");
    const app = await startApp();
    const nina = shopify.customers.add("nina@example.com");
    await storefrontLooksUp(app, nina);

    await until("the job fails", async () => (await shareLinkJobs())[0]?.status === "failed");
    const [job] = await shareLinkJobs();
    expect(job!.lastError).toContain("write_customers");
    expect(metafieldsOf(nina)).toEqual({ link: null, code: null });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).shareLinkMetafield).toBe(false);
    const row = await prisma.customerShareLink.findFirst({ where: { shop: TEST_SHOP } });
    expect(row?.detail ?? "").toContain("write_customers");
  }, 90_000);

  it("queues nothing while the shop keeps no share link on its customers", async () => {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { shareLinkMetafield: false } });
    const app = await startApp(false);
    const nina = shopify.customers.add("nina@example.com");
    expect((await storefrontLooksUp(app, nina)).status).toBe("ok");
    expect(await shareLinkJobs()).toEqual([]);
  }, 60_000);
});
