import type { Prisma, PrismaClient } from "@prisma/client";
import type { ReferralClient } from "../../platform/referral-api";
import { commissionDecided, flowTriggersOn, queueFlowTrigger, type DecidedBy } from "../flow-triggers";
import { moveCommissionState, type CommissionState } from "./commission-state";
import { commissionDecisionKey, onlyCampaign } from "./decision-key";
import { sentUnderOrderKey } from "./legacy-decision-key.server";
import { askService, type CommissionAtService, type ServiceAnswer } from "./service-answer.server";

// The one owner of a commission decision. decide does, for every caller (the
// Commissions page and its bulk job, the Flow action, the service's webhook,
// the order, cancel and refund jobs, the activity page's check):
// 1. the service call, or takes what the service reported;
// 2. the conditional move of the order's commission state (commission-state.ts);
// 3. the commission approved/denied Flow trigger, keyed by order, campaign and
//    decision (decision-key.ts).
// The rule for the trigger: a decision the service accepted or reported sends
// it, unless a newer settled state is stored (see readAs); the key makes
// every repeat do nothing.

export interface CommissionRef extends CommissionAtService {
  /** For the trigger: the ambassador credited, and the campaign's name (else its uid). */
  referrerEmail?: string | null;
  campaignName?: string | null;
}

export interface Decision {
  shop: string;
  commission: CommissionRef;
  /** "pending" only as the service reported it: a move, never a trigger. */
  state: CommissionState;
  by: DecidedBy;
  /** "ask": commission/update first; "reported": the service has decided (its webhook, the order's recording, a job that asked already). */
  service: "ask" | "reported";
  /** Denied only: why, when the app knows. */
  reason?: string | null;
  /**
   * The state the caller read before it asked the service (a job that
   * denied the commission). A settled state stored since then came from a
   * service event while the caller worked, is newer, and stays: no trigger.
   */
  readAs?: string | null;
  /** The record the caller matched some other way than by its order id (the webhook, by the customer's email). */
  recordId?: string;
}

export interface CommissionDeps {
  /** The client, or the caller's transaction to store a reported decision with the caller's own write. */
  db: PrismaClient | Prisma.TransactionClient;
  /** Needed to ask the service. */
  client?: ReferralClient;
}

/** moved: the order's commission state changed (the Flow trigger follows the rule above, moved or not). */
export type DecideResult = { ok: true; moved: boolean } | Exclude<ServiceAnswer, { ok: true }>;

export async function decide(deps: CommissionDeps, decision: Decision): Promise<DecideResult> {
  if (decision.service === "ask") {
    if (!deps.client) throw new Error("decide: asking the referral service needs its client");
    if (decision.state === "pending") throw new Error("decide: the service is asked to approve or deny, never to make pending");
    const answer = await askService(deps.client, decision.commission, { status: decision.state });
    if (!answer.ok) return answer;
  }
  const { db } = deps;
  return "$transaction" in db ? db.$transaction((tx) => store(tx, decision)) : store(db, decision);
}

async function store(tx: Prisma.TransactionClient, decision: Decision): Promise<DecideResult> {
  const { shop, commission, state } = decision;
  const where = decision.recordId ? { id: decision.recordId } : commission.orderId ? { shop, orderId: commission.orderId } : null;
  const moved = where ? await moveCommissionState(tx, where, state, { readAs: decision.readAs }) : false;
  if (state === "pending") return { ok: true, moved };
  const record =
    where && (!moved || !commission.campaignUid)
      ? await tx.orderRecord.findFirst({ where, select: { commissionState: true, campaignUids: true } })
      : null;
  // Not moved: the state was this decision already, or a newer settled one stands. A commission of no order the app knows has no state.
  const inEffect = moved || record === null || record.commissionState === state;
  if (inEffect) await queueDecisionTrigger(tx, decision, { ...commission, campaignUid: commission.campaignUid ?? onlyCampaign(record?.campaignUids) }, state);
  return { ok: true, moved };
}

async function queueDecisionTrigger(tx: Prisma.TransactionClient, decision: Decision, commission: CommissionRef, state: "approved" | "denied"): Promise<void> {
  const { shop } = decision;
  if (!(await flowTriggersOn(tx, shop))) return;
  const { orderId, campaignUid, campaignName } = commission;
  const trigger = commissionDecided({
    state,
    orderId: orderId ?? "",
    referrerEmail: commission.referrerEmail,
    campaign: campaignName ?? campaignUid,
    by: decision.by,
    reason: decision.reason,
  });
  if (orderId && (await sentUnderOrderKey(tx, shop, trigger.handle, orderId, { uid: campaignUid, name: campaignName ?? null }))) return;
  await queueFlowTrigger(tx, shop, trigger, commissionDecisionKey(commission));
}
