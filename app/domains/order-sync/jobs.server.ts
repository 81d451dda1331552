import { done } from "../../platform/queue/outcome";
import { defineJob, type QueueContext } from "../../platform/queue/registry";
import { realSleep } from "../../platform/http/sleep";
import type { IntakeResult, OrderWebhook } from "../referrals";
import { sweepPixelSignals } from "../referrals";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import { failBackfill, runBackfill } from "./backfill.server";
import { BACKFILL_JOB, RECONCILE_JOB } from "./job-kinds";
import type { OrderSyncDeps } from "./order-pages.server";
import { reconcileShop, scheduleReconcile, type ReconcileSettings } from "./reconcile.server";

/** What the order-sync jobs are given. */
export interface OrderSyncJobContext extends QueueContext {
  adminForShop: AdminForShop;
  /** Where orders read from the Admin API are stored: the intake order webhooks go through. */
  intake(hooks: OrderWebhook[]): Promise<IntakeResult[]>;
  reconcile: ReconcileSettings;
}

async function syncDeps(ctx: OrderSyncJobContext, shop: string): Promise<{ ok: true; deps: OrderSyncDeps } | { ok: false; reason: string }> {
  const access = await ctx.adminForShop(shop);
  if (!access.ok) return access;
  return { ok: true, deps: { db: ctx.db, admin: { admin: access.admin, sleep: realSleep }, intake: ctx.intake, logger: ctx.logger, now: ctx.now } };
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const orderSyncJobs = [
  defineJob(RECONCILE_JOB, {
    async handle(ctx: OrderSyncJobContext, shop) {
      // Orders judged not referred are joined with their web pixel signals, and the old signals go.
      const pixel = await sweepPixelSignals(ctx.db, shop, ctx.now());
      if (pixel.reopened > 0 || pixel.deleted > 0) ctx.logger.info({ shop, ...pixel }, "pixel signals swept");
      const access = await syncDeps(ctx, shop);
      // Uninstalled: no next pass; installing again schedules one.
      if (!access.ok) return done;
      // The next pass is queued first, so that one failing pass does not end the schedule.
      await scheduleReconcile(ctx.db, shop, ctx.now(), ctx.reconcile.intervalMs);
      try {
        const pass = await reconcileShop(access.deps, shop, ctx.reconcile);
        ctx.logger.info({ shop, ...pass }, "orders reconciled");
      } catch (error) {
        if (!(error instanceof AdminCallError)) throw error;
        // Left to the next pass, which starts from the same watermark.
        await ctx.db.orderSync.updateMany({ where: { shop }, data: { reconcileError: reason(error) } });
        ctx.logger.warn({ shop, err: error }, "reconciliation pass stopped; the next one starts where it stopped");
      }
      return done;
    },
  }),
  defineJob(BACKFILL_JOB, {
    async handle(ctx: OrderSyncJobContext, shop, { startedAt }) {
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
    async onFailed(ctx: OrderSyncJobContext, shop, { startedAt }, why) {
      await failBackfill(ctx.db, shop, new Date(startedAt), `The backfill stopped: ${why}`);
    },
  }),
];
