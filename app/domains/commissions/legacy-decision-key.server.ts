import type { Prisma } from "@prisma/client";
import { jobKey } from "../../platform/queue/job-row";
import { FLOW_TRIGGER_JOB } from "../flow-triggers";

/**
 * Until the key named the campaign (decision 026), a decision's trigger was
 * keyed by its order alone. Such a job of this order and decision, for this
 * campaign or naming none (the Commissions page sent none; the purge empties
 * a sent trigger's payload), means this trigger went out before the deploy.
 * Only the service's webhook learns a decision that late, and the app takes
 * none older than three days (MAX_EVENT_AGE_MS): this read can go three days
 * after the deploy.
 */
export async function sentUnderOrderKey(
  db: Pick<Prisma.TransactionClient, "job">,
  shop: string,
  handle: string,
  orderId: string,
  campaign: { uid: string | null; name: string | null },
): Promise<boolean> {
  const job = await db.job.findUnique({ where: { key: jobKey(shop, FLOW_TRIGGER_JOB.name, `${handle}:order:${orderId}`) }, select: { payload: true } });
  if (!job) return false;
  const sent = (JSON.parse(job.payload) as { payload?: { Campaign?: unknown } }).payload?.Campaign;
  return sent === undefined || sent === "" || sent === campaign.uid || sent === campaign.name;
}
