import type { PrismaClient } from "@prisma/client";
import { logger } from "../logger.server";
import { PRIVACY_JOB_KINDS } from "../privacy/job-kinds";

export const STOPPED_BY_UNINSTALL = "Stopped: the app was uninstalled";

/**
 * The shop removed the app: its sessions go and its waiting jobs stop.
 * Settings, credentials and records stay until shop/redact, so a quick
 * reinstall finds them again. Privacy jobs (data request reports, erasure at
 * the service) keep running: they are owed to the customer whatever the shop
 * does. A job already running finishes its attempt and is not taken again.
 */
export async function handleAppUninstalled(
  db: PrismaClient,
  event: { shop: string; hadSession: boolean; topic: string },
): Promise<void> {
  const { shop } = event;
  const [sessions, , jobs, , events] = await db.$transaction([
    db.session.deleteMany({ where: { shop } }),
    db.shop.updateMany({ where: { shop }, data: { uninstalledAt: new Date() } }),
    db.job.updateMany({
      where: { shop, status: { in: ["queued", "paused"] }, kind: { notIn: PRIVACY_JOB_KINDS } },
      data: { status: "done", lastError: STOPPED_BY_UNINSTALL },
    }),
    db.orderRecord.updateMany({
      where: { shop, status: "queued" },
      data: { status: "skipped", statusReason: "Not recorded: the app was uninstalled before it could send the order" },
    }),
    db.serviceEvent.updateMany({
      where: { shop, state: "received" },
      data: { state: "failed", detail: "Not acted on: the app was uninstalled. Retry it to act on it now." },
    }),
  ]);
  logger.info(
    { shop, topic: event.topic, sessionsDeleted: sessions.count, jobsStopped: jobs.count, eventsStopped: events.count },
    "app uninstalled",
  );
}
