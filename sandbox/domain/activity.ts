// Things the v2 interface cannot cause but the demo needs: payouts, shares and
// clicks on share links. They feed the stats and emit their webhooks.

import { formatWebhookTime } from "../dates";
import { centsToNumber, formatCents, isDecimal, parseCents } from "../money";
import type { Payout, PayoutStatus, Store, Unit } from "../state";
import { isActiveCampaign, landingUrl } from "./campaigns";
import { recordEmail } from "./emails";
import { campaignShape, contactShort } from "./webhook-shapes";

export class ActivityError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export const PAYMENT_METHODS = ["manual", "payservice1", "payservice2", "storeplatform", "gift_card", "voucher"] as const;
const PAYOUT_STATUSES: PayoutStatus[] = ["pending", "paid", "denied"];

export interface PayoutInput {
  email?: unknown;
  amount?: unknown;
  unit?: unknown;
  payment_method?: unknown;
  status?: unknown;
}

/** A pending or paid payout takes the amount off the balance; paid adds it to money/points paid. */
export function createPayout(store: Store, input: PayoutInput, now = Date.now()) {
  if (typeof input.email !== "string") throw new ActivityError(400, "email is required.");
  const ambassador = store.findByEmail(input.email);
  if (!ambassador) throw new ActivityError(404, `No ambassador exists with the email ${input.email}.`);
  const unit = (input.unit ?? "money") as Unit;
  if (unit !== "money" && unit !== "points") throw new ActivityError(400, "unit must be money or points.");
  const method = String(input.payment_method ?? "storeplatform");
  if (!(PAYMENT_METHODS as readonly string[]).includes(method)) {
    throw new ActivityError(400, `payment_method must be one of ${PAYMENT_METHODS.join(", ")}.`);
  }
  const status = (input.status ?? "paid") as PayoutStatus;
  if (!PAYOUT_STATUSES.includes(status)) throw new ActivityError(400, "status must be pending, paid or denied.");
  const amountText = typeof input.amount === "number" ? String(input.amount) : input.amount;
  if (typeof amountText !== "string" || !isDecimal(amountText)) throw new ActivityError(400, "amount must be a number.");
  const hundredths = parseCents(amountText);
  if (hundredths <= 0) throw new ActivityError(400, "amount must be greater than zero.");
  if (unit === "points" && hundredths % 100 !== 0) throw new ActivityError(400, "A points payout must be a whole number.");

  const balance = unit === "money" ? ambassador.balanceCents : ambassador.balancePoints * 100;
  if (status !== "denied" && hundredths > balance) {
    throw new ActivityError(400, `The ${unit} balance (${formatCents(balance)}) is lower than the payout.`);
  }
  if (status !== "denied") {
    if (unit === "money") ambassador.balanceCents -= hundredths;
    else ambassador.balancePoints -= hundredths / 100;
  }
  if (status === "paid") {
    if (unit === "money") ambassador.moneyPaidCents += hundredths;
    else ambassador.pointsPaid += hundredths / 100;
  }
  const payout: Payout = { id: store.nextId("payout"), ambassadorId: ambassador.id, amountHundredths: hundredths, unit, paymentMethod: method, status, createdMs: now };
  store.payouts.push(payout);
  if (status !== "pending") {
    recordEmail(store, {
      type: status === "paid" ? "fulfilledPayout" : "deniedPayout",
      recipient: ambassador.email,
      subject: status === "paid" ? "Your payout is on its way" : "Your payout was denied",
      message: `Payout ${payout.id} of ${formatCents(hundredths)} ${unit} is ${status}.`,
      now,
    });
  }
  const shape = {
    id: payout.id,
    created_at: formatWebhookTime(now),
    amount: centsToNumber(hundredths),
    unit,
    payment_method: method,
    gift_card_sku: null,
    voucher_code: null,
    transaction_id: status === "paid" ? `payout-${payout.id}` : null,
  };
  store.emit("payout-created", { contact: contactShort(ambassador), payout: shape });
  return { ...shape, status, email: ambassador.email };
}

export function recordShare(store: Store, input: { email?: unknown; campaign_uid?: unknown; channel?: unknown }, now = Date.now()) {
  if (typeof input.email !== "string") throw new ActivityError(400, "email is required.");
  const ambassador = store.findByEmail(input.email);
  if (!ambassador) throw new ActivityError(404, `No ambassador exists with the email ${input.email}.`);
  const campaign = store.campaigns.get(String(input.campaign_uid ?? "1001"));
  if (!campaign) throw new ActivityError(404, `No campaign exists with the uid ${String(input.campaign_uid)}.`);
  const channel = typeof input.channel === "string" && input.channel ? input.channel.toLowerCase() : "email";
  const share = { id: store.nextId("share"), ambassadorId: ambassador.id, campaignUid: campaign.uid, channel, createdMs: now };
  store.shares.push(share);
  store.emit("share-tracked", {
    contact: contactShort(ambassador),
    share: { created_at: formatWebhookTime(now), social_name: channel },
    url: { short_code: ambassador.shortCodes.get(campaign.uid) },
    campaign: campaignShape(campaign),
  });
  return { id: share.id, email: ambassador.email, campaign_uid: campaign.uid, channel };
}

/** A visit of a share link: counted as a click, answered with the landing page URL. */
export function recordClick(
  store: Store,
  code: string,
  details: { channel?: string; ip?: string; referringUrl?: string },
  now = Date.now(),
): string | undefined {
  const found = store.findByShortCode(code);
  const campaign = found && store.campaigns.get(found.campaignUid);
  if (!found || !campaign || !isActiveCampaign(campaign, now)) return undefined;
  const shortCode = found.ambassador.shortCodes.get(campaign.uid)!;
  const channel = details.channel?.toLowerCase() || "direct";
  store.clicks.push({
    id: store.nextId("click"),
    ambassadorId: found.ambassador.id,
    campaignUid: campaign.uid,
    shortCode,
    channel,
    ip: details.ip ?? null,
    referringUrl: details.referringUrl ?? null,
    createdMs: now,
  });
  store.emit("click-tracked", {
    contact: contactShort(found.ambassador),
    click: {
      created_at: formatWebhookTime(now),
      social_name: channel,
      ip: details.ip ?? null,
      ...(details.referringUrl ? { referring_url: details.referringUrl } : {}),
    },
    url: { short_code: shortCode },
    campaign: campaignShape(campaign),
  });
  return landingUrl(campaign, shortCode);
}
