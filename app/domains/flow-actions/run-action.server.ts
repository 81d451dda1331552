import type { PrismaClient } from "@prisma/client";
import { commissionsOfOrder, decideInJob } from "../commissions";
import { outcomeOfServiceError } from "../connection";
import { askShareLinkSync } from "../customer-metafields";
import type { ShopClient } from "../connection";
import { enqueueMissingAmbassadorCode } from "../offers";
import { orderReferrers } from "../referrals";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import type { ReferralClient } from "../../platform/referral-api";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { adminCustomerLookup, CustomerLookupError } from "../../platform/shopify-admin/customer-lookup.server";
import type { FlowAction } from "./flow-request";

export interface FlowActionDeps {
  db: PrismaClient;
  clientForShop(shop: string): Promise<ShopClient>;
  adminForShop: AdminForShop;
  now(): Date;
}

/** The job's verdict and, when it ends the run, what the Service events page says of it. */
type Step = { outcome: JobOutcome; finished?: { state: "done" | "failed"; detail: string } };

const finished = (state: "done" | "failed", detail: string): Step => ({ outcome: state === "done" ? done : { type: "fail", reason: detail }, finished: { state, detail } });

/** Runs one Flow action run; the caller records how it ended. */
export async function runFlowAction(deps: FlowActionDeps, shop: string, action: FlowAction): Promise<Step> {
  const connection = await deps.clientForShop(shop);
  if (!connection.ok) return finished("failed", connection.reason);
  try {
    return action.handle === "enrol-ambassador"
      ? await enrol(deps, shop, connection.client, action)
      : await decideOrder(deps, shop, connection.client, action);
  } catch (error) {
    if (error instanceof CustomerLookupError) return { outcome: { type: "retry", reason: error.message } };
    return { outcome: outcomeOfServiceError(error) };
  }
}

/**
 * The enrolment the storefront makes for a shop that enrols its customers
 * (share-links.server.ts): the customer's email from Shopify, then
 * ambassador/get with auto_create and the customer's id as uid, into the
 * group Flow names or else the shop's group for new ambassadors.
 */
async function enrol(deps: FlowActionDeps, shop: string, client: ReferralClient, action: Extract<FlowAction, { handle: "enrol-ambassador" }>): Promise<Step> {
  const access = await deps.adminForShop(shop);
  if (!access.ok) return { outcome: { type: "pause", reason: access.reason, alone: true } };
  const customer = await adminCustomerLookup(access.admin)(action.customerId);
  if (!customer) return finished("failed", `Not enrolled: the shop has no customer ${action.customerId}.`);
  if (!customer.email) return finished("failed", `Not enrolled: customer ${action.customerId} has no email address.`);
  const row = await deps.db.shop.findUnique({ where: { shop }, select: { newAmbassadorGroup: true } });
  const group = action.group ?? (row?.newAmbassadorGroup?.trim() || null);
  const { ambassador } = await client.getAmbassador({
    email: customer.email,
    autoCreate: true,
    uid: action.customerId,
    firstName: customer.firstName ?? undefined,
    ...(group ? { addToGroupId: group } : {}),
  });
  if (ambassador.status === "banned" || ambassador.status === "unsubscribed") {
    return finished("failed", `Not enrolled: ${customer.email} is ${ambassador.status} at the referral service.`);
  }
  // A new ambassador has a share code the friend's offers may not hold yet.
  if (ambassador.email) await enqueueMissingAmbassadorCode(deps.db, shop, ambassador.email, deps.now());
  // And the share link on the Shopify customer, when the shop keeps it there.
  if (ambassador.email) await askShareLinkSync(deps.db, shop, ambassador.email, { reason: "flow-action", customerId: action.customerId });
  return finished("done", `Enrolled ${customer.email}${group ? ` in group ${group}` : ""}.`);
}

/** The merchant's decision, as on the Commissions page, for each pending commission of the order. */
async function decideOrder(deps: FlowActionDeps, shop: string, client: ReferralClient, action: Extract<FlowAction, { handle: "decide-commission" }>): Promise<Step> {
  const record = await deps.db.orderRecord.findFirst({ where: { shop, orderId: action.orderId } });
  if (!record) return finished("failed", `Not changed: the app has no referral recorded for order ${action.orderId}.`);
  const commissions = await commissionsOfOrder(client, { orderId: record.orderId, referrers: orderReferrers(record) });
  const pending = commissions.filter((c) => c.status === "pending");
  if (pending.length === 0) {
    const states = [...new Set(commissions.map((c) => c.status ?? "unknown"))];
    const seen = states.length > 0 ? ` (its commission is ${states.join(", ")})` : "";
    return finished("failed", `Not changed: order ${record.orderName ?? action.orderId} has no pending referral commission${seen}.`);
  }
  const results = [];
  for (const commission of pending) {
    results.push(
      await decideInJob(
        { db: deps.db, client },
        {
          shop,
          service: "ask",
          state: action.decision === "approve" ? "approved" : "denied",
          by: "merchant",
          commission: { commissionUid: commission.commissionUid, orderId: record.orderId, campaignUid: commission.campaignUid },
        },
      ),
    );
  }
  const failedOnes = results.filter((r) => !r.ok && !r.skipped);
  const summary = results.map((r) => `commission ${r.uid}: ${r.message}`).join("; ");
  const why = action.reason ? ` Reason: ${action.reason}` : "";
  return finished(failedOnes.length > 0 ? "failed" : "done", `${summary}.${why}`);
}
