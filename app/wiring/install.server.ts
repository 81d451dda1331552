import type { PrismaClient } from "@prisma/client";
import { logger } from "../platform/logger/logger.server";
import { enqueueShopOfferSyncs, scheduleShopOfferSyncs } from "../domains/offers";
import { OFFER_SYNC_JOB } from "../domains/offers";
import { RECONCILE_JOB } from "../domains/order-sync";
import { scheduleReconcile } from "../domains/order-sync";
import { resumeShopJobs, reviveStoppedJobs } from "../platform/queue/shop-jobs.server";
import { notifyJobEnqueued } from "../platform/queue/wake";
import { TOKEN_REFUSED } from "../platform/shopify-admin/offline-token.server";
import { NOT_INSTALLED } from "./admin-access.server";
import { forgetShopCheck } from "./order-intake.server";
import { STOPPED_BY_UNINSTALL } from "./uninstall.server";

/** The jobs that keep a shop in step on their own schedule; an uninstall stops them, an install starts them again. */
const SCHEDULED_KINDS = [RECONCILE_JOB.name, OFFER_SYNC_JOB.name];

/**
 * After an authentication that stored a new offline token (afterAuth): an
 * install, a reinstall, or a new token once the last one expired. Each run
 * is cheap and changes nothing the second time. A shop that had uninstalled
 * is installed again: its links block, pixel signals and jobs work again
 * (they read Shop.uninstalledAt); its scheduled reconciliation and offer
 * syncs, stopped by the uninstall, wait again at their own times, and every
 * offer is brought in step now (ambassadors may have changed meanwhile).
 * Jobs held because the app had no usable token run again. Orders queued
 * when it uninstalled stay skipped (reconciliation finds what came since).
 */
export async function handleAppInstalled(db: PrismaClient, shop: string, now: Date, settings: { reconcileIntervalMs: number }): Promise<void> {
  const { reinstalled, revived, resumed } = await db.$transaction(async (tx) => {
    const cleared = await tx.shop.updateMany({ where: { shop, uninstalledAt: { not: null } }, data: { uninstalledAt: null } });
    return {
      reinstalled: cleared.count > 0,
      revived: await reviveStoppedJobs(tx, shop, SCHEDULED_KINDS, STOPPED_BY_UNINSTALL, now),
      resumed: await resumeShopJobs(tx, shop, now, { pausedFor: [NOT_INSTALLED, TOKEN_REFUSED] }),
    };
  });
  forgetShopCheck(shop);
  if (revived > 0 || resumed > 0) notifyJobEnqueued();
  await scheduleReconcile(db, shop, now, settings.reconcileIntervalMs);
  await scheduleShopOfferSyncs(db, shop, now);
  const offerSyncs = reinstalled ? await enqueueShopOfferSyncs(db, shop, now) : 0;
  if (reinstalled || revived > 0 || resumed > 0) logger.info({ shop, reinstalled, revived, resumed, offerSyncs }, "app installed");
}

/**
 * At start-up: a shop that has an offline session again but still carries
 * its uninstall mark (its afterAuth failed half-way: the library stores the
 * session first, and does not run the hook again while the session is good)
 * is treated as installed now. How many such shops there were.
 */
export async function finishInterruptedInstalls(db: PrismaClient, now: Date, settings: { reconcileIntervalMs: number }): Promise<number> {
  const marked = await db.shop.findMany({ where: { uninstalledAt: { not: null } }, select: { shop: true } });
  if (marked.length === 0) return 0;
  const installed = await db.session.findMany({ where: { isOnline: false, shop: { in: marked.map((row) => row.shop) } }, select: { shop: true }, distinct: ["shop"] });
  for (const { shop } of installed) await handleAppInstalled(db, shop, now, settings);
  return installed.length;
}
