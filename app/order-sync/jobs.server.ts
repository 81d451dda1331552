import type { z } from "zod";
import { getEnv } from "../env.server";
import { realSleep } from "../referral-api/sleep";
import type { OrderWebhook } from "../referrals/order-intake";
import { AdminCallError } from "../shopify-admin/admin-graphql.server";
import { failBackfill, runBackfill } from "./backfill.server";
import { BACKFILL_JOB, RECONCILE_JOB } from "./job-kinds";
import type { OrderSyncDeps } from "./order-pages.server";
import { reconcileShop, scheduleReconcile } from "./reconcile.server";
import type { JobContext } from "../wiring/job-context";
import { JOB_PAYLOADS } from "../queue/kinds";
import { done, type JobOutcome } from "../queue/outcome";

/** The app's order intake, the one webhooks go through; loaded on first use, as it opens the database. */
async function appIntake(hooks: OrderWebhook[]) {
  const { acceptOrderWebhook } = await import("../referrals/group-commit.server");
  return Promise.all(hooks.map(acceptOrderWebhook));
}

async function syncDeps(ctx: JobContext, shop: string): Promise<{ ok: true; deps: OrderSyncDeps } | { ok: false; reason: string }> {
  const access = await ctx.adminForShop(shop);
  if (!access.ok) return access;
  return { ok: true, deps: { db: ctx.db, admin: { admin: access.admin, sleep: realSleep }, intake: ctx.intake ?? appIntake, logger: ctx.logger, now: ctx.now } };
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

const reconcilePayload = JOB_PAYLOADS[RECONCILE_JOB];

export const reconcileJob = {
  kind: RECONCILE_JOB,
  payload: reconcilePayload,
  async handle(ctx: JobContext, shop: string): Promise<JobOutcome> {
    const { RECONCILE_INTERVAL_MS, RECONCILE_OVERLAP_MS } = getEnv();
    const access = await syncDeps(ctx, shop);
    // Uninstalled: no next pass; installing again schedules one.
    if (!access.ok) return done;
    // The next pass is queued first, so that one failing pass does not end the schedule.
    await scheduleReconcile(ctx.db, shop, ctx.now(), RECONCILE_INTERVAL_MS);
    try {
      const pass = await reconcileShop(access.deps, shop, { intervalMs: RECONCILE_INTERVAL_MS, overlapMs: RECONCILE_OVERLAP_MS });
      ctx.logger.info({ shop, ...pass }, "orders reconciled");
    } catch (error) {
      if (!(error instanceof AdminCallError)) throw error;
      // Left to the next pass, which starts from the same watermark.
      await ctx.db.orderSync.updateMany({ where: { shop }, data: { reconcileError: reason(error) } });
      ctx.logger.warn({ shop, err: error }, "reconciliation pass stopped; the next one starts where it stopped");
    }
    return done;
  },
} as const;

const backfillPayload = JOB_PAYLOADS[BACKFILL_JOB];

export const backfillJob = {
  kind: BACKFILL_JOB,
  payload: backfillPayload,
  async handle(ctx: JobContext, shop: string, { startedAt }: z.infer<typeof backfillPayload>): Promise<JobOutcome> {
    const access = await syncDeps(ctx, shop);
    if (!access.ok) {
      await failBackfill(ctx.db, shop, new Date(startedAt), access.reason);
      return done;
    }
    try {
      await runBackfill(access.deps, shop, new Date(startedAt));
    } catch (error) {
      if (error instanceof AdminCallError && error.applied === false && !/slow down/.test(error.message)) return { type: "fail", reason: reason(error) };
      return { type: "retry", reason: reason(error) };
    }
    return done;
  },
  async onFailed(ctx: JobContext, shop: string, { startedAt }: z.infer<typeof backfillPayload>, why: string): Promise<void> {
    await failBackfill(ctx.db, shop, new Date(startedAt), `The backfill stopped: ${why}`);
  },
} as const;
