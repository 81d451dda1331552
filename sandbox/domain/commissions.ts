import { formatCents, parseCents, parsePercent, percentOfCents, percentOfCentsAsPoints } from "../money";
import type { Ambassador, Commission, CommissionState, Reward, Store, Unit } from "../state";
import { recordEmail } from "./emails";
import { commissionEventData } from "./webhook-shapes";

export interface RewardAmount {
  unit: Unit;
  /** cents, or points x 100 */
  hundredths: number;
}

/** P/N are a percentage of the revenue, F/M flat, D nothing; P/F money, N/M points (whole). */
export function rewardAmount(reward: Reward, revenueCents: number): RewardAmount | null {
  switch (reward.type) {
    case "P":
      return { unit: "money", hundredths: percentOfCents(revenueCents, parsePercent(reward.amount)) };
    case "F":
      return { unit: "money", hundredths: parseCents(reward.amount) };
    case "N":
      return { unit: "points", hundredths: percentOfCentsAsPoints(revenueCents, parsePercent(reward.amount)) * 100 };
    case "M":
      return { unit: "points", hundredths: Math.round(parseCents(reward.amount) / 100) * 100 };
    case "D":
      return null;
  }
}

export function isPercentageReward(reward: Reward | null): boolean {
  return reward?.type === "P" || reward?.type === "N";
}

export function credit(ambassador: Ambassador, unit: Unit, hundredths: number): void {
  if (unit === "money") ambassador.balanceCents += hundredths;
  else ambassador.balancePoints += Math.round(hundredths / 100);
}

export interface NewCommission {
  campaignUid: string;
  affiliate: Ambassador;
  referringUid?: string | null;
  customer?: Ambassador | null;
  customerEmail?: string | null;
  customerUid?: string | null;
  revenueCents: number;
  amount: RewardAmount;
  reward: Reward | null;
  approved: boolean;
  transactionUid: string | null;
  sandbox: boolean;
  eventData: [string | null, string | null, string | null];
  now?: number;
}

export function createCommission(store: Store, input: NewCommission): Commission {
  const now = input.now ?? Date.now();
  const commission: Commission = {
    id: store.nextId("commission"),
    campaignUid: input.campaignUid,
    affiliateId: input.affiliate.id,
    referringUid: input.referringUid ?? input.affiliate.uid,
    customerAmbassadorId: input.customer?.id ?? null,
    customerEmail: input.customerEmail ?? input.customer?.email ?? null,
    customerUid: input.customerUid ?? input.customer?.uid ?? null,
    revenueCents: input.revenueCents,
    amountHundredths: input.amount.hundredths,
    unit: input.amount.unit,
    reward: input.reward,
    state: input.approved ? 1 : 0,
    createdMs: now,
    approvedMs: input.approved ? now : null,
    transactionUid: input.transactionUid,
    sandbox: input.sandbox,
    welcomeBonus: false,
    eventData: input.eventData,
  };
  store.insertCommission(commission);
  if (commission.transactionUid !== null) store.addTransaction(commission.campaignUid, commission.transactionUid);
  if (input.approved) credit(input.affiliate, commission.unit, commission.amountHundredths);
  notify(store, commission, now);
  store.emit("commission-created", commissionEventData(store, commission, true));
  return commission;
}

/** pending -> approved credits the balance; pending -> denied credits nothing. */
export function changeState(store: Store, commission: Commission, state: Exclude<CommissionState, 0>, now = Date.now()): void {
  commission.state = state;
  if (state === 1) {
    commission.approvedMs = now;
    const affiliate = store.ambassadors.get(commission.affiliateId);
    if (affiliate) credit(affiliate, commission.unit, commission.amountHundredths);
  }
  notify(store, commission, now);
  store.emit("commission-status-updated", commissionEventData(store, commission, false));
}

const EMAIL_OF_STATE = ["pendingCommission", "approvedCommission", "deniedCommission"] as const;
const WORD_OF_STATE = ["pending", "approved", "denied"] as const;

function notify(store: Store, commission: Commission, now: number): void {
  const affiliate = store.ambassadors.get(commission.affiliateId);
  if (!affiliate) return;
  const amount = commission.unit === "money" ? formatCents(commission.amountHundredths) : `${commission.amountHundredths / 100} ${store.company.pointName}`;
  recordEmail(store, {
    type: EMAIL_OF_STATE[commission.state],
    recipient: affiliate.email,
    subject: `Your commission is ${WORD_OF_STATE[commission.state]}`,
    message: `Commission ${commission.id} of ${amount} is ${WORD_OF_STATE[commission.state]}.`,
    now,
  });
}
