import { beforeEach, describe, expect, it } from "vitest";
import { recheckOrder, resendOrder, skipOrder } from "../../../app/entry/admin/activity.server";
import { SKIPPED_BY_MERCHANT } from "../../../app/domains/referrals";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { action, loader } from "../../../app/routes/app.activity";
import { connectShop, sandboxCommissions, testPipeline, type TestPipeline, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { load, submit } from "./admin-requests";
import { cancelOrder, failedOrder, receiveOrder, recordJobOf, recordOf } from "./fixtures";
import { sandboxClient } from "../../support/sandbox-client";

const OTHER_SHOP = "other-store.myshopify.com";
const sandbox = useTestSandbox();
let pipeline: TestPipeline;
const ctx = () => ({ db: prisma, credentialsKey: getEnv().CREDENTIALS_KEY, network: { allowLoopback: true } });
const client = () => sandboxClient(sandbox);

beforeEach(async () => {
  await installShop();
  await connectShop(sandbox);
  pipeline = testPipeline();
});

const act = (form: Record<string, string>, shop?: string) => submit(action, "/app/activity", form, { shop });

describe("activity: the domain", () => {
  it("retries a failed order: its job is due now with fresh attempts, and the worker records it", async () => {
    const orderId = await failedOrder(sandbox, pipeline);
    expect(await recordOf(orderId)).toMatchObject({
      status: "failed",
      lastError: expect.stringMatching(/Gave up after 14 attempts/),
    });

    const before = Date.now();
    const result = await resendOrder(ctx(), TEST_SHOP, orderId);

    expect(result).toMatchObject({ ok: true, title: "Retry started" });
    const job = await recordJobOf(orderId);
    expect(job).toMatchObject({ status: "queued", attempts: 0, lastError: null });
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(job.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await recordOf(orderId)).toMatchObject({
      status: "queued",
      statusReason: "Retry requested by the merchant",
      attempts: 0,
    });

    // The worker's clock is ahead of the real one after the outage; a real worker picks it up at once.
    await pipeline.drain();
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", lastError: null });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
  });

  it("refuses to retry an order that didn't fail", async () => {
    const orderId = await receiveOrder();
    await pipeline.drain();
    const result = await resendOrder(ctx(), TEST_SHOP, orderId);
    expect(result).toMatchObject({ ok: false, title: "Nothing to retry" });
    expect((await recordJobOf(orderId)).status).toBe("done");
  });

  it("skips a failed order: the record says who decided and its job is closed", async () => {
    // The service refuses an ended campaign: the merchant has to act.
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { campaignUids: "1005" } });
    const orderId = await receiveOrder({ noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    await pipeline.drain();
    expect((await recordOf(orderId)).status).toBe("failed");

    expect(await skipOrder(ctx(), TEST_SHOP, orderId)).toMatchObject({ ok: true, title: "Order skipped" });

    expect(await recordOf(orderId)).toMatchObject({ status: "skipped", statusReason: SKIPPED_BY_MERCHANT });
    expect(await recordJobOf(orderId)).toMatchObject({ status: "done", lastError: SKIPPED_BY_MERCHANT });
    expect(await skipOrder(ctx(), TEST_SHOP, orderId)).toMatchObject({ ok: false, title: "Can't skip this order" });
  });

  it("checks an order that needs review again: still approved stays for review, with the way to review it", async () => {
    await connectShop(sandbox, { approval: "approved" });
    const orderId = await receiveOrder();
    await pipeline.drain();
    await cancelOrder(orderId);
    await pipeline.drain();
    expect((await recordOf(orderId)).status).toBe("needs_review");

    const result = await recheckOrder(ctx(), TEST_SHOP, orderId, client());

    expect(result).toMatchObject({ ok: false, tone: "warning", title: "Still needs your review" });
    expect(result.message).toContain("campaign 1001: approved");
    expect(result.action).toEqual({ content: "Review in Commissions", url: `/app/commissions?order=${orderId}` });
    expect((await recordOf(orderId)).status).toBe("needs_review");
  });

  it("closes an order that needs review once its commission is denied at the service", async () => {
    // GIVEN a recorded order with a pending commission that a refund marked for review
    const orderId = await receiveOrder();
    await pipeline.drain();
    const results = JSON.parse((await recordOf(orderId)).results!);
    results["1001"].reversal = "needs_review";
    await prisma.orderRecord.update({
      where: { shop_orderId: { shop: TEST_SHOP, orderId } },
      data: { status: "needs_review", results: JSON.stringify(results) },
    });
    // WHEN the merchant denies it at the service and checks again
    await client().updateCommission({ transactionUid: orderId, status: "denied" });
    const result = await recheckOrder(ctx(), TEST_SHOP, orderId, client());
    // THEN the order is closed as reversed
    expect(result).toMatchObject({ ok: true, title: "Review resolved" });
    expect(await recordOf(orderId)).toMatchObject({ status: "reversed", commissionState: "denied" });
  });
});

const otherBuyer = (n: number) => ({ email: `buyer${n}@example.net`, customerEmail: `buyer${n}@example.net`, customerId: 7_400_000_000 + n });

describe("activity page", () => {
  it("lists the shop's records with status, attempts and last error, filtered by status and paged", async () => {
    const failed = await failedOrder(sandbox, pipeline);
    const recorded = await receiveOrder();
    await pipeline.drain();

    const all = await load(loader, "/app/activity");
    expect(all.rows.map((r) => r.orderId).sort()).toEqual([failed, recorded].sort());
    expect(all.counts).toMatchObject({ failed: 1, recorded: 1, queued: 0 });

    const onlyFailed = await load(loader, "/app/activity?status=failed");
    expect(onlyFailed.rows).toHaveLength(1);
    expect(onlyFailed.rows[0]).toMatchObject({ orderId: failed, status: "failed", attempts: 14, retry: "resend", canSkip: true });
    expect(onlyFailed.rows[0].lastError).toMatch(/Gave up after 14 attempts/);

    const bogus = await load(loader, "/app/activity?status=nonsense&page=-3");
    expect(bogus).toMatchObject({ status: null, page: 1, total: 2 });

    const second = await load(loader, "/app/activity?page=2");
    expect(second).toMatchObject({ page: 2, rows: [], hasMore: false, total: 2 });
  });

  it("shows only the code the decision picked, and the orders waiting for a pixel signal under their own tab", async () => {
    // GIVEN an order recorded through its cart's link, one whose unknown link its job judged (waiting for a signal since),
    // one with no code at all (waiting from the intake on), and one not decided yet; the last three are other buyers,
    // since a later order of the first order's buyer is a repeat purchase of a referred customer
    const recorded = await receiveOrder();
    const unknown = await receiveOrder({ ...otherBuyer(1), noteAttributes: [{ name: "_referral_code", value: "NOSUCHCODE" }] });
    const noCode = await receiveOrder({ ...otherBuyer(2), noteAttributes: [], landingSite: "/" });
    await pipeline.drain();
    const queued = await receiveOrder();

    const page = await load(loader, "/app/activity");
    const rowOf = (orderId: string) => page.rows.find((row) => row.orderId === orderId);
    expect(rowOf(recorded)).toMatchObject({ status: "recorded", code: "ALICE10", codeKind: "link" });
    expect(rowOf(unknown)).toMatchObject({ status: "awaiting_signal", code: null, codeKind: null });
    expect(rowOf(noCode)).toMatchObject({ status: "awaiting_signal", code: null, codeKind: null });
    expect(rowOf(queued)).toMatchObject({ status: "queued", code: null, codeKind: null });
    expect(page.counts).toMatchObject({ recorded: 1, awaiting_signal: 2, queued: 1 });

    const waiting = await load(loader, "/app/activity?status=awaiting_signal");
    expect(waiting.rows.map((row) => row.orderId).sort()).toEqual([unknown, noCode].sort());
  });

  it("retries and skips through the action", async () => {
    const first = await failedOrder(sandbox, pipeline);
    const second = await failedOrder(sandbox, pipeline);

    const retried = await act({ intent: "retry", orderId: first });
    expect(retried).toMatchObject({ status: 200, body: { ok: true, title: "Retry started" } });
    expect((await recordJobOf(first)).status).toBe("queued");

    const skipped = await act({ intent: "skip", orderId: second });
    expect(skipped).toMatchObject({ status: 200, body: { ok: true, title: "Order skipped" } });
    expect(await recordOf(second)).toMatchObject({ status: "skipped", statusReason: "Skipped by the merchant" });

    expect(await act({ intent: "delete", orderId: first })).toMatchObject({ status: 400, body: { ok: false } });
    expect(await act({ intent: "retry", orderId: "../../etc" })).toMatchObject({ status: 400, body: { ok: false } });
  });

  it("never shows or changes another shop's records", async () => {
    await installShop(OTHER_SHOP);
    await connectShop(sandbox, { shop: OTHER_SHOP });
    const theirs = await failedOrder(sandbox, pipeline, OTHER_SHOP);
    const ours = await receiveOrder();

    const page = await load(loader, "/app/activity");
    expect(page.rows.map((r) => r.orderId)).toEqual([ours]);
    expect(page.counts.failed).toBe(0);

    expect(await act({ intent: "retry", orderId: theirs })).toMatchObject({ status: 400, body: { title: "Order not found" } });
    expect(await act({ intent: "skip", orderId: theirs })).toMatchObject({ status: 400, body: { title: "Order not found" } });
    expect((await recordOf(theirs, OTHER_SHOP)).status).toBe("failed");
    expect((await recordJobOf(theirs, OTHER_SHOP)).status).toBe("failed");

    const theirPage = await load(loader, "/app/activity", { shop: OTHER_SHOP });
    expect(theirPage.rows.map((r) => r.orderId)).toEqual([theirs]);
  });
});
