import type { PrismaClient } from "@prisma/client";
import { logger } from "../logger.server";

/**
 * The shop removed the app: its sessions go at once. Settings, credentials and
 * records stay until shop/redact, so a quick reinstall finds them again.
 */
export async function handleAppUninstalled(
  db: PrismaClient,
  event: { shop: string; hadSession: boolean; topic: string },
): Promise<void> {
  const [sessions] = await db.$transaction([
    db.session.deleteMany({ where: { shop: event.shop } }),
    db.shop.updateMany({ where: { shop: event.shop }, data: { uninstalledAt: new Date() } }),
  ]);
  logger.info({ shop: event.shop, topic: event.topic, sessionsDeleted: sessions.count }, "app uninstalled");
}
