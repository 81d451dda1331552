import prisma from "../db.server";
import { getEnv, serviceNetwork } from "../env.server";
import { logger } from "../logger.server";
import type { AdminContext } from "../admin/admin-context";

/** The admin context of this app process. */
export function appAdminContext(): AdminContext {
  return { db: prisma, credentialsKey: getEnv().CREDENTIALS_KEY, network: serviceNetwork(), logger };
}
