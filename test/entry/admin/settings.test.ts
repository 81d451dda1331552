import { createServer } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { openToken } from "../../../app/platform/crypto/sealing.server";
import { action, loader } from "../../../app/routes/app.settings";
import { startSandbox } from "../../../sandbox/server";
import { connectShop, rotateSandboxToken, sandboxCommissions, sandboxFaults, sandboxRequests, testPipeline, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { load, submit, type ActionBody } from "./admin-requests";
import { receiveOrder, recordJobOf, recordOf } from "./fixtures";

const sandbox = useTestSandbox();

beforeEach(async () => {
  await installShop();
});

const post = (form: Record<string, string | string[]>) => submit(action, "/app/settings", form);

/** A refused form: its field errors and, for a failed check with the service, what happened. */
function refusal(body: ActionBody<typeof action>) {
  if (body.ok) throw new Error(`Expected a refusal: ${JSON.stringify(body)}`);
  return { fieldErrors: ("fieldErrors" in body ? body.fieldErrors : {}) as Record<string, string | undefined>, error: "error" in body ? body.error : undefined };
}
const connect = (form: Record<string, string>) => post({ intent: "connect", ...form });
const shopRow = () => prisma.shop.findUnique({ where: { shop: TEST_SHOP } });
const page = () => load(loader, "/app/settings");

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const SETTINGS = {
  intent: "save-settings",
  campaignUids: ["1001", "1003"],
  trigger: "orders_create",
  scope: "all_orders",
  approval: "pending",
  revenueBasis: "total",
  codeParams: "mbsy, ref",
  testOrders: "send",
  autoEnrol: "true",
  newAmbassadorGroup: "2",
};

describe("settings: connecting the referral service", () => {
  it("connects with the right credentials, stores the token sealed and never sends it back", async () => {
    const { status, body } = await connect({ baseUrl: `${sandbox.baseUrl}/`, username: "demo", token: "demo-token" });

    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, companyName: "Demo Outfitters", campaignCount: 4 });
    const row = await shopRow();
    expect(row).toMatchObject({
      connectionStatus: "connected",
      connectionError: null,
      companyName: "Demo Outfitters",
      serviceBaseUrl: sandbox.baseUrl,
    });
    expect(row!.serviceTokenSealed).not.toContain("demo-token");
    expect(openToken(row!.serviceTokenSealed!, getEnv().CREDENTIALS_KEY, { shop: TEST_SHOP, column: "Shop.serviceTokenSealed" })).toBe("demo-token");

    const settings = await page();
    expect(JSON.stringify(settings)).not.toContain("demo-token");
    expect(JSON.stringify(settings)).not.toContain(row!.serviceTokenSealed);
    expect(settings.connection).toMatchObject({ status: "connected", hasToken: true, companyName: "Demo Outfitters" });
    const program = settings.program?.ok ? settings.program.value : null;
    expect(program?.campaigns.map((c) => c.uid)).toEqual(["1001", "1002", "1003", "1004"]);
    expect(program?.groups).toEqual([
      { id: "1", name: "Customers", isDefault: true },
      { id: "2", name: "VIP", isDefault: false },
    ]);
  });

  it("says when the username or token is wrong, and stores nothing", async () => {
    const { status, body } = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "not-the-token" });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      ok: false,
      error: { title: "Wrong username or API token" },
      fieldErrors: { token: expect.any(String) },
    });
    expect(await shopRow()).toBeNull();
    expect(JSON.stringify(body)).not.toContain("not-the-token");
  });

  it("says when nothing answers at the base URL", async () => {
    const port = await closedPort();
    const { status, body } = await connect({ baseUrl: `http://127.0.0.1:${port}`, username: "demo", token: "demo-token" });
    expect(status).toBe(400);
    const { error, fieldErrors } = refusal(body);
    expect(error?.title).toBe("Can't reach the referral service");
    expect(error?.message).toContain(`127.0.0.1:${port}`);
    expect(fieldErrors.baseUrl).toBe("Nothing answered at this address.");
  });

  it("says when the service is too slow, after 8 seconds, and keeps the working connection", async () => {
    await connectShop(sandbox);
    const before = await shopRow();
    await sandboxFaults(sandbox, { latencyMs: 9_000, operations: ["company/get"] });

    const started = Date.now();
    const { status, body } = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "demo-token" });

    expect(Date.now() - started).toBeGreaterThanOrEqual(7_900);
    expect(Date.now() - started).toBeLessThan(9_000);
    expect(status).toBe(400);
    expect(refusal(body).error?.title).toBe("The referral service is too slow");
    expect(refusal(body).error?.message).toMatch(/didn't answer within 8 seconds/);
    expect(await shopRow()).toMatchObject({ connectionStatus: "connected", serviceTokenSealed: before!.serviceTokenSealed });
  }, 20_000);

  it("checks the form before calling the service", async () => {
    const { status, body } = await connect({ baseUrl: "ftp://example.com", username: " ", token: "x" });
    expect(status).toBe(400);
    expect(refusal(body).fieldErrors).toMatchObject({
      baseUrl: expect.stringMatching(/https/),
      username: "Enter your API username.",
    });
    const full = await connect({
      baseUrl: `${sandbox.baseUrl}/api/v2/demo/demo-token/json`,
      username: "demo",
      token: "demo-token",
    });
    expect(refusal(full.body).fieldErrors.baseUrl).toMatch(/before \/api\/v2/);
    const noToken = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "" });
    expect(refusal(noToken.body).fieldErrors).toEqual({ token: "Enter your API token." });
    expect(await post({ intent: "drop-tables" })).toMatchObject({ status: 400 });
  });

  it("takes new credentials after the connection broke, keeps the stored token when the field is empty, and resumes held orders", async () => {
    // GIVEN a connected shop whose token the service stopped accepting, with an order held because of it
    await connectShop(sandbox);
    await rotateSandboxToken(sandbox, "rotated-token");
    const orderId = await receiveOrder();
    const pipeline = testPipeline();
    await pipeline.drain();
    expect(await shopRow()).toMatchObject({ connectionStatus: "broken" });
    expect((await recordJobOf(orderId)).status).toBe("paused");
    expect((await page()).connection.status).toBe("broken");

    // WHEN the merchant enters the new token
    const { body } = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "rotated-token" });

    // THEN the shop is connected again and the held order runs
    expect(body).toMatchObject({ ok: true, resumedJobs: 1 });
    expect(await shopRow()).toMatchObject({ connectionStatus: "connected", connectionError: null });
    expect((await recordJobOf(orderId)).status).toBe("queued");
    await pipeline.drain();
    expect((await recordOf(orderId)).status).toBe("recorded");

    // AND a later save with an empty token field keeps the stored token
    const again = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "" });
    expect(again.body).toMatchObject({ ok: true });
    expect(openToken((await shopRow())!.serviceTokenSealed!, getEnv().CREDENTIALS_KEY, { shop: TEST_SHOP, column: "Shop.serviceTokenSealed" })).toBe("rotated-token");
  });
});

describe("settings: connecting another account", () => {
  it("forgets what the former account said of the shop's codes: a discount code it refused as a coupon is asked of the new one", async () => {
    // Another account at another service, with the same campaigns and no coupons.
    const former = await startSandbox({ port: 0, quiet: true, timeScale: 0.001, seed: false, username: "former", token: "former-token" });
    try {
      // GIVEN a shop connected to it, whose order's discount code ALICE-15 it refused as a coupon: remembered as the store's own promotion
      await connectShop(former);
      const pipeline = testPipeline();
      const first = await receiveOrder({ noteAttributes: [], discountCodes: ["ALICE-15"] });
      await pipeline.drain();
      expect(await recordOf(first)).toMatchObject({ status: "awaiting_signal" });
      expect(pipeline.ctx.codes.isKnownPromotion(TEST_SHOP, "ALICE-15")).toBe(true);

      // WHEN the merchant connects the account where ALICE-15 is alice's coupon
      const { body } = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "demo-token" });
      expect(body).toMatchObject({ ok: true });

      // THEN the next order with that code is sent to it, within the ten minutes the promotion would have been kept, and credited
      const second = await receiveOrder({ noteAttributes: [], discountCodes: ["ALICE-15"] });
      await pipeline.drain();
      expect(await recordOf(second)).toMatchObject({ status: "recorded", couponCode: "ALICE-15" });
      expect((await sandboxCommissions(sandbox, second)).map((c) => c.affiliate_email)).toEqual(["alice@example.com"]);
      expect(await sandboxRequests(sandbox, "event/record")).toHaveLength(1);
    } finally {
      await former.close();
    }
  });
});

describe("settings: the order pipeline and storefront", () => {
  it("saves valid settings and resumes orders held for want of a campaign", async () => {
    await connectShop(sandbox, { campaignUids: "" });
    const orderId = await receiveOrder();
    await testPipeline().drain();
    expect((await recordJobOf(orderId)).status).toBe("paused");

    const { status, body } = await post(SETTINGS);

    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, resumedJobs: 1, trackedCampaigns: 2 });
    expect(await shopRow()).toMatchObject({
      campaignUids: "1001,1003",
      trigger: "orders_create",
      scope: "all_orders",
      approval: "pending",
      revenueBasis: "total",
      codeParams: "mbsy,ref",
      testOrders: "send",
      autoEnrol: true,
      newAmbassadorGroup: "2",
    });
    expect((await recordJobOf(orderId)).status).toBe("queued");
    expect((await page()).settings).toMatchObject({ campaignUids: ["1001", "1003"], codeParams: "mbsy, ref", autoEnrol: true });
  });

  it("refuses values outside the allowed ones, with a message per field", async () => {
    await connectShop(sandbox);
    const { status, body } = await post({
      ...SETTINGS,
      trigger: "orders_fulfilled",
      revenueBasis: "everything",
      codeParams: "mbsy, bad name!",
      autoEnrol: "yes",
    });
    expect(status).toBe(400);
    const { fieldErrors } = refusal(body);
    expect(Object.keys(fieldErrors).sort()).toEqual(["autoEnrol", "codeParams", "revenueBasis", "trigger"]);
    expect(fieldErrors.trigger).toBe("Choose when orders are recorded.");
    expect((await shopRow())!.trigger).toBe("orders_paid");
  });

  it("saves the referral guard's rules and daily limit, and the guard then applies them", async () => {
    await connectShop(sandbox);
    const guard = { guard_velocity_code: "block", guard_self_ip: "off", guardDailyLimit: "1" };
    expect(await post({ ...SETTINGS, campaignUids: ["1001"], trigger: "orders_paid", ...guard })).toMatchObject({ status: 200, body: { ok: true } });
    expect((await page()).settings).toMatchObject({ guard: { velocity_code: "block", self_ip: "off", self_email: "block" }, guardDailyLimit: "1" });

    // Two orders with one code in a day: the second is over the limit of 1 and blocked.
    const first = await receiveOrder({ email: "one@example.com", customerEmail: "one@example.com" });
    await testPipeline().drain();
    const second = await receiveOrder({ email: "two@example.com", customerEmail: "two@example.com" });
    await testPipeline().drain();
    expect((await recordOf(first)).status).toBe("recorded");
    expect(await recordOf(second)).toMatchObject({ status: "blocked", statusReason: expect.stringMatching(/one referral code in a day/i) });
  });

  it("refuses a guard mode or daily limit that isn't allowed, and keeps the stored ones", async () => {
    await connectShop(sandbox);
    const { status, body } = await post({ ...SETTINGS, guard_self_email: "maybe", guardDailyLimit: "0" });
    expect(status).toBe(400);
    expect(refusal(body).fieldErrors).toEqual({
      guard_self_email: "Choose Off, Flag for review or Block.",
      guardDailyLimit: "Enter a whole number of orders from 1 to 1000.",
    });
    expect(await shopRow()).toMatchObject({ guardRules: "", guardDailyLimit: 5 });
  });

  it("saves the review window and the merchant's renewal signal; the signal then marks a referred customer's renewal", async () => {
    await connectShop(sandbox);
    const saved = await post({ ...SETTINGS, campaignUids: ["1001"], trigger: "orders_paid", scope: "with_code", reviewWindowDays: " 30 ", renewalRuleKind: "tag", renewalRuleName: " box-renewal " });
    expect(saved).toMatchObject({ status: 200, body: { ok: true } });
    expect(await shopRow()).toMatchObject({ reviewWindowDays: 30, renewalRule: "tag:box-renewal" });
    expect((await page()).settings).toMatchObject({ reviewWindowDays: "30", renewalRuleKind: "tag", renewalRuleName: "box-renewal" });

    // Maria, referred by Alice, then an order tagged as the merchant said: a renewal on the recurring reward.
    const maria = { email: "maria@example.com", customerEmail: "maria@example.com", customerId: 7390001122334455 };
    await receiveOrder({ ...maria });
    await testPipeline().drain();
    const renewal = await receiveOrder({ ...maria, noteAttributes: [], landingSite: "/", tags: "Box-Renewal" });
    await testPipeline().drain();
    expect(await recordOf(renewal)).toMatchObject({ status: "recorded", repeatKind: "renewal" });
    expect(JSON.parse((await recordOf(renewal)).explanation!).decision).toContain('your renewal tag "box-renewal"');

    // Empty: the window is off; none: no signal of the merchant's.
    expect(await post({ ...SETTINGS, campaignUids: ["1001"], reviewWindowDays: "", renewalRuleKind: "none", renewalRuleName: "ignored" })).toMatchObject({ status: 200 });
    expect(await shopRow()).toMatchObject({ reviewWindowDays: 0, renewalRule: "" });
  });

  it("refuses a review window or renewal signal that isn't allowed, and keeps the stored ones", async () => {
    await connectShop(sandbox, { renewalRule: "attribute:Renewal" });
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { reviewWindowDays: 14 } });
    const refused = async (form: Record<string, string>) => refusal((await post({ ...SETTINGS, ...form })).body).fieldErrors;
    expect(await refused({ reviewWindowDays: "366" })).toEqual({ reviewWindowDays: "Enter a whole number of days from 1 to 365, or leave it empty to approve nothing on its own." });
    expect(await refused({ reviewWindowDays: "2.5" })).toEqual({ reviewWindowDays: expect.stringContaining("whole number of days") });
    expect(await refused({ renewalRuleKind: "tag", renewalRuleName: "  " })).toEqual({ renewalRuleName: "Enter the tag your subscription app puts on renewal orders." });
    expect(await refused({ renewalRuleKind: "tag", renewalRuleName: "a, b" })).toEqual({ renewalRuleName: "Enter one tag of at most 40 characters, without commas." });
    expect(await refused({ renewalRuleKind: "attribute", renewalRuleName: "x".repeat(101) })).toEqual({ renewalRuleName: "Enter a note attribute name of at most 100 characters." });
    expect(await refused({ renewalRuleKind: "sku" })).toEqual({ renewalRuleKind: "Choose none, a tag or a note attribute." });
    expect(await shopRow()).toMatchObject({ reviewWindowDays: 14, renewalRule: "attribute:Renewal" });
  });

  it("shows the leaked codes' defaults, saves a threshold, window and hold (empty threshold: off), and refuses what isn't allowed, keeping what is stored", async () => {
    await connectShop(sandbox);
    // The defaults: on, more than 5 buyers within 7 days, commissions held
    expect((await page()).settings).toMatchObject({ leakThreshold: "5", leakWindowDays: "7", leakHold: true });

    expect(await post({ ...SETTINGS, campaignUids: ["1001"], leakThreshold: " 12 ", leakWindowDays: "30", leakHold: "false" })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await shopRow()).toMatchObject({ leakThreshold: 12, leakWindowDays: 30, leakHold: false });
    expect((await page()).settings).toMatchObject({ leakThreshold: "12", leakWindowDays: "30", leakHold: false });

    const refused = async (form: Record<string, string>) => refusal((await post({ ...SETTINGS, campaignUids: ["1001"], ...form })).body).fieldErrors;
    expect(await refused({ leakThreshold: "1001" })).toEqual({ leakThreshold: "Enter a whole number of buyers from 1 to 1000, or leave it empty to flag no code." });
    expect(await refused({ leakThreshold: "-1" })).toEqual({ leakThreshold: expect.stringContaining("whole number of buyers") });
    expect(await refused({ leakWindowDays: "0" })).toEqual({ leakWindowDays: "Enter a whole number of days from 1 to 90." });
    expect(await refused({ leakWindowDays: "" })).toEqual({ leakWindowDays: "Enter a whole number of days from 1 to 90." });
    expect(await refused({ leakWindowDays: "91" })).toEqual({ leakWindowDays: "Enter a whole number of days from 1 to 90." });
    expect(await refused({ leakHold: "maybe" })).toEqual({ leakHold: "Choose whether leaked codes' commissions are held." });
    expect(await shopRow()).toMatchObject({ leakThreshold: 12, leakWindowDays: 30, leakHold: false });

    // Empty: no code is flagged
    expect(await post({ ...SETTINGS, campaignUids: ["1001"], leakThreshold: "", leakHold: "true" })).toMatchObject({ status: 200 });
    expect(await shopRow()).toMatchObject({ leakThreshold: 0, leakWindowDays: 30, leakHold: true });
    expect((await page()).settings).toMatchObject({ leakThreshold: "" });
  });

  it("refuses a campaign that isn't active in the program and a group that doesn't exist", async () => {
    await connectShop(sandbox);
    const expired = await post({ ...SETTINGS, campaignUids: ["1001", "1005"] });
    expect(expired).toMatchObject({ status: 400, body: { fieldErrors: { campaignUids: expect.stringContaining("1005") } } });
    const group = await post({ ...SETTINGS, newAmbassadorGroup: "99" });
    expect(group).toMatchObject({ status: 400, body: { fieldErrors: { newAmbassadorGroup: expect.any(String) } } });
    expect((await shopRow())!.campaignUids).toBe("1001");
  });
});

describe("settings: disconnecting the referral service", () => {
  it("forgets the token, holds the work for the service without failing it, and sends all of it once connected again", async () => {
    // GIVEN a shop connected through Settings, with one order received and not sent yet
    const connected = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "demo-token" });
    expect(connected.body).toMatchObject({ ok: true });
    await post({ ...SETTINGS, campaignUids: ["1001"], trigger: "orders_paid" });
    const before = await receiveOrder();
    const reconcile = await prisma.job.findFirstOrThrow({ where: { shop: TEST_SHOP, kind: "orders.reconcile" } });

    // WHEN the merchant disconnects
    const { status, body } = await post({ intent: "disconnect" });

    // THEN the token is gone, the address and username stay for the form, and the order's job waits
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, pausedJobs: 1 });
    expect(await shopRow()).toMatchObject({
      connectionStatus: "not_connected",
      serviceTokenSealed: null,
      companyName: null,
      serviceBaseUrl: sandbox.baseUrl,
      serviceUsername: "demo",
    });
    expect(await recordJobOf(before)).toMatchObject({ status: "paused", attempts: 0, lastError: expect.stringContaining("disconnected") });
    // Reading Shopify's orders back calls no service: it goes on.
    expect((await prisma.job.findUniqueOrThrow({ where: { id: reconcile.id } })).status).toBe("queued");
    const settings = await page();
    expect(settings.connection).toMatchObject({ status: "not_connected", hasToken: false, username: "demo", baseUrl: sandbox.baseUrl });
    expect(settings.program).toBeNull();

    // AND an order that arrives meanwhile waits too; nothing is sent, nothing fails
    const during = await receiveOrder();
    const pipeline = testPipeline();
    await pipeline.drain();
    for (const orderId of [before, during]) expect((await recordJobOf(orderId)).status).toBe("paused");
    expect(await prisma.job.count({ where: { shop: TEST_SHOP, status: "failed" } })).toBe(0);
    expect(await sandboxRequests(sandbox, "event/record")).toHaveLength(0);

    // AND saving settings meanwhile leaves the work Disconnect held waiting for the connection
    expect((await post({ ...SETTINGS, campaignUids: ["1001"], trigger: "orders_paid" })).status).toBe(200);
    expect(await recordJobOf(before)).toMatchObject({ status: "paused", lastError: expect.stringContaining("disconnected") });
    await pipeline.drain();

    // AND a connect without the token is refused: the old one is not kept
    expect((await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "" })).body).toMatchObject({
      ok: false,
      fieldErrors: { token: "Enter your API token." },
    });

    // WHEN the merchant connects again
    const again = await connect({ baseUrl: sandbox.baseUrl, username: "demo", token: "demo-token" });

    // THEN both orders are sent, once each (the third job resumed is reconciliation, held with the shop's other work
    // when the second order found no connection)
    expect(again.body).toMatchObject({ ok: true, resumedJobs: 3 });
    await pipeline.drain();
    for (const orderId of [before, during]) {
      expect((await recordOf(orderId)).status).toBe("recorded");
      expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
    }
  });

  it("says so when the shop is not connected", async () => {
    const { status, body } = await post({ intent: "disconnect" });
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, fieldErrors: { form: "The referral service is not connected." } });
  });
});
