import type { PrismaClient } from "@prisma/client";
import { logger } from "../platform/logger/logger.server";
import { PRIVACY_JOB_KINDS } from "../domains/privacy";
import { stopShopJobs } from "../platform/queue/shop-jobs.server";
import { skipQueuedOrders } from "../domains/referrals";
import { stopReceivedEvents } from "../domains/service-events";
import { forgetShareLinks } from "./storefront-context.server";

export const STOPPED_BY_UNINSTALL = "Stopped: the app was uninstalled";

/**
 * The shop removed the app: its sessions go and its waiting jobs stop.
 * Settings, credentials and records stay until shop/redact, so a quick
 * reinstall finds them again. Privacy jobs (data request reports, erasure at
 * the service) keep running: they are owed to the customer whatever the shop
 * does. A job already running finishes its attempt and is not taken again.
 */
export async function handleAppUninstalled(db: PrismaClient, event: { shop: string; hadSession: boolean; topic: string }): Promise<void> {
  const { shop } = event;
  const counts = await db.$transaction(async (tx) => {
    const sessions = await tx.session.deleteMany({ where: { shop } });
    await tx.shop.updateMany({ where: { shop }, data: { uninstalledAt: new Date() } });
    const jobs = await stopShopJobs(tx, shop, STOPPED_BY_UNINSTALL, PRIVACY_JOB_KINDS);
    await skipQueuedOrders(tx, shop, "Not recorded: the app was uninstalled before it could send the order");
    const events = await stopReceivedEvents(tx, shop, "Not acted on: the app was uninstalled. Retry it to act on it now.");
    return { sessionsDeleted: sessions.count, jobsStopped: jobs, eventsStopped: events };
  });
  // This process answers the links block "unavailable" at once; others within a minute (SHARE_LINKS_TTL_MS).
  forgetShareLinks(shop);
  logger.info({ shop, topic: event.topic, ...counts }, "app uninstalled");
}
