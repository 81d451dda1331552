import type { JobOutcome } from "../../platform/queue/outcome";
import { done } from "../../platform/queue/outcome";
import type { JobMeta, QueueContext } from "../../platform/queue/registry";
import { realSleep } from "../../platform/http/sleep";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { adminCall } from "../../platform/shopify-admin/admin-call.server";
import { AdminCallError } from "../../platform/shopify-admin/admin-graphql.server";
import type { FlowPayload } from "./triggers";

// The flow.trigger job: one flowTriggerReceive call through the app's Admin
// client (adminCall: paced by the cost bucket, THROTTLED waited out).

export const FLOW_TRIGGER_RECEIVE = `#graphql
mutation ReferralBridgeFlowTrigger($handle: String!, $payload: JSON!) {
  flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } }
}`;

export interface FlowTriggerJobContext extends QueueContext {
  adminForShop: AdminForShop;
}

export async function sendFlowTrigger(
  ctx: FlowTriggerJobContext,
  shop: string,
  trigger: { handle: string; payload: FlowPayload },
  job: Pick<JobMeta, "externalWrite">,
): Promise<JobOutcome> {
  const access = await ctx.adminForShop(shop);
  // As the offer's sync: Shopify's answer about this shop's token holds this job alone; the orders never wait for it.
  if (!access.ok) return { type: "pause", reason: access.reason, alone: true };
  try {
    const data = await job.externalWrite(() =>
      adminCall<{ flowTriggerReceive: { userErrors: { field: string[] | null; message: string }[] } }>(
        { admin: access.admin, sleep: realSleep },
        FLOW_TRIGGER_RECEIVE,
        trigger,
      ),
    );
    const refused = data.flowTriggerReceive.userErrors.map((e) => e.message).join("; ");
    // Shopify refused this payload for this trigger: sending it again changes nothing.
    if (refused) return { type: "fail", reason: `Shopify Flow refused the ${trigger.handle} trigger: ${refused}` };
    ctx.logger.info({ shop, handle: trigger.handle }, "flow trigger sent");
    return done;
  } catch (error) {
    // Refused, throttled too long, or no answer: tried again with backoff. Flow takes no idempotency key, so an answer
    // lost after Shopify acted (AdminCallError.applied "unknown") is sent again: at least once rather than never.
    return { type: "retry", reason: error instanceof AdminCallError || error instanceof Error ? error.message : String(error) };
  }
}
