import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { SHARE_LINK_BACKFILL_JOB, SHARE_LINK_METAFIELD_JOB } from "../../../app/domains/customer-metafields/job-kinds";
import { DEFAULT_SCOPES, getEnv } from "../../../app/wiring/env.server";
import { action as ambassadorAction } from "../../../app/routes/app.ambassadors.$email";
import { action as eventsAction, loader as eventsLoader } from "../../../app/routes/app.events";
import { callRoute, load, submit } from "../../entry/admin/admin-requests";
import { adminRequest } from "../../entry/admin/admin-requests";
import { connectShop, testPipeline, useTestSandbox, type TestPipeline } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import type { StandInCustomer } from "../../support/standin-customers";
import { TEST_SHOP } from "../../support/shopify-requests";

// The merchant's side of the share link on the customer: turning the option
// on (Service events page) writes it for the ambassadors enrolled before;
// deactivating an ambassador (Ambassadors page) removes it, activating
// writes it again. Real route actions with signed embedded requests, the
// sandbox service, the Admin stand-in (2026-10 schema), a worker draining.

const sandbox = useTestSandbox();
const shopify = new ShopifyAdminStandIn();
let served: Awaited<ReturnType<ShopifyAdminStandIn["serve"]>>;
let pipeline: TestPipeline;

beforeAll(async () => {
  served = await shopify.serve();
  // The page asks Shopify which scopes are granted; the environment was read before the stand-in's port was known.
  getEnv().SHOPIFY_ADMIN_API_ORIGIN = served.origin;
});
afterAll(async () => {
  getEnv().SHOPIFY_ADMIN_API_ORIGIN = undefined;
  await served?.close();
});
beforeEach(async () => {
  shopify.customers.byId.clear();
  shopify.customerMetafields.byOwner.clear();
  shopify.calls = [];
  shopify.refused = [];
  shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), "write_customers"];
  await connectShop(sandbox, { campaignUids: "1001" });
  pipeline = testPipeline();
  pipeline.ctx.adminForShop = shopify.access();
});

const linkOf = (customer: StandInCustomer) => shopify.customerMetafields.valueOf(customer.id, "share_link");
const codeOf = (customer: StandInCustomer) => shopify.customerMetafields.valueOf(customer.id, "share_code");
const jobsOf = (kind: string) => prisma.job.findMany({ where: { shop: TEST_SHOP, kind } });

async function turnOn() {
  const request = await adminRequest("/app/events", { form: { intent: "options", storeCreditPayouts: "false", tagContacts: "false", shareLinkMetafield: "true" } });
  expect(await callRoute(eventsAction, request)).toEqual({ ok: true, message: "Saved." });
}

describe("the share link on the customer, from the admin", () => {
  it("turning the option on writes it for every active ambassador who is a Shopify customer", async () => {
    const alice = shopify.customers.add("alice@example.com");
    const bob = shopify.customers.add("bob@example.com");
    const carol = shopify.customers.add("carol@example.com"); // deactivated at the service

    await turnOn();
    expect(await jobsOf(SHARE_LINK_BACKFILL_JOB.name)).toHaveLength(1);
    await pipeline.drain();

    expect([codeOf(alice), codeOf(bob), codeOf(carol)]).toEqual(["ALICE10", "BOB10", null]);
    expect(linkOf(alice)).toMatch(/\/s\/ALICE10$/);
    // One job per active ambassador, each done (those without a Shopify customer too: nothing to write).
    const jobs = await jobsOf(SHARE_LINK_METAFIELD_JOB.name);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    expect(jobs.every((job) => job.status === "done")).toBe(true);
    expect(shopify.refused).toEqual([]);

    // Saving the page again with it on queues no second backfill.
    await turnOn();
    expect(await jobsOf(SHARE_LINK_BACKFILL_JOB.name)).toHaveLength(1);
  }, 60_000);

  it("the Service events page says how many customers carry their link, and why a write did not happen", async () => {
    const alice = shopify.customers.add("alice@example.com");
    await turnOn();
    await pipeline.drain();
    expect(codeOf(alice)).toBe("ALICE10");
    expect((await load(eventsLoader, "/app/events")).shareLinks).toMatchObject({ written: 1 });

    // WHEN the merchant takes write_customers back (before app/scopes_update arrives) and Alice is deactivated
    shopify.grantedScopes = DEFAULT_SCOPES.split(",");
    await submit(ambassadorAction, "/app/ambassadors/alice@example.com", { intent: "deactivate" }, { params: { email: "alice@example.com" } });
    await pipeline.drain();

    // THEN the job stops, the option is off, and the page says what is missing
    const page = await load(eventsLoader, "/app/events");
    expect(page.options.shareLinkMetafield).toBe(false);
    expect(page.shareLinks.lastProblem).toContain("write_customers");
    expect((await jobsOf(SHARE_LINK_METAFIELD_JOB.name)).filter((job) => job.status === "failed")).toHaveLength(1);
  }, 60_000);

  it("deactivating an ambassador on the Ambassadors page removes it; activating writes it again", async () => {
    const alice = shopify.customers.add("alice@example.com");
    await turnOn();
    await pipeline.drain();
    expect(codeOf(alice)).toBe("ALICE10");

    const path = "/app/ambassadors/alice@example.com";
    const params = { email: "alice@example.com" };
    expect((await submit(ambassadorAction, path, { intent: "deactivate" }, { params })).body).toMatchObject({ ok: true });
    await pipeline.drain();
    expect([linkOf(alice), codeOf(alice)]).toEqual([null, null]);
    expect(shopify.calls.filter((c) => c.operation === "ReferralBridgeDeleteShareLink" && c.outcome === "ok")).toHaveLength(1);

    await submit(ambassadorAction, path, { intent: "activate" }, { params });
    await pipeline.drain();
    expect(codeOf(alice)).toBe("ALICE10");
    expect(shopify.refused).toEqual([]);
  }, 60_000);
});
