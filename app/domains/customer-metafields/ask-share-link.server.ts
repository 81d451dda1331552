import type { PrismaClient } from "@prisma/client";
import { enqueueJob } from "../../platform/queue/enqueue.server";
import { SHARE_LINK_BACKFILL_JOB, SHARE_LINK_METAFIELD_JOB } from "./job-kinds";
import type { ShareLinkValues } from "./share-link-fields";

/** Where the app learnt that an ambassador's link may have changed, for the job's key. */
export type ShareLinkReason = "seen" | "contact-created" | "contact-status" | "admin" | "backfill" | "flow-action";

export interface ShareLinkAsk {
  reason: ShareLinkReason;
  /** The numeric id or gid of the Shopify customer, when the asker knows it. */
  customerId?: string | null;
  /**
   * The link and code the asker has just seen at the service (null: the
   * ambassador is not active): nothing is queued when the customer already
   * carries them. Left out, the job always looks.
   */
  seen?: ShareLinkValues | null;
  now?: Date;
}

const customerGid = (id: string) => (id.startsWith("gid://") ? id : `gid://shopify/Customer/${id}`);

/**
 * Queues the job that brings one ambassador's share link metafields in step,
 * when the shop keeps them and something may have changed. Never calls
 * Shopify: safe inside a storefront request. Returns whether a job was queued.
 * The key holds the version last written, so asks before the job has run
 * collapse into one, and the next change after it is a job of its own.
 */
export async function askShareLinkSync(db: PrismaClient, shop: string, email: string, ask: ShareLinkAsk): Promise<boolean> {
  const settings = await db.shop.findUnique({ where: { shop }, select: { shareLinkMetafield: true } });
  if (!settings?.shareLinkMetafield) return false;
  return queueShareLinkSync(db, shop, email, ask);
}

/** askShareLinkSync for a caller that has read the shop's row already and found the option on. */
export async function queueShareLinkSync(db: PrismaClient, shop: string, email: string, ask: ShareLinkAsk): Promise<boolean> {
  const lower = email.trim().toLowerCase();
  const written = await db.customerShareLink.findUnique({ where: { shop_email: { shop, email: lower } }, select: { link: true, code: true, version: true } });
  if (ask.seen !== undefined) {
    const same = written
      ? (written.link ?? null) === (ask.seen?.link ?? null) && (written.code ?? null) === (ask.seen?.code ?? null)
      : ask.seen === null;
    if (same) return false;
  }
  return enqueueJob(db, SHARE_LINK_METAFIELD_JOB, {
    shop,
    subject: `${lower}:${written?.version ?? 0}:${ask.reason}`,
    payload: { email: lower, ...(ask.customerId ? { customerId: customerGid(ask.customerId) } : {}) },
    triggeredAt: ask.now ?? new Date(),
  });
}

/** Every active ambassador's customer gets their share link (a job that asks one job per ambassador). */
export function enqueueShareLinkBackfill(db: PrismaClient, shop: string, now = new Date()): Promise<boolean> {
  return enqueueJob(db, SHARE_LINK_BACKFILL_JOB, { shop, subject: `backfill:${now.getTime()}`, payload: {}, triggeredAt: now });
}
