import {
  ApiError,
  DUPLICATE_TRANSACTION,
  MESSAGES,
  badRequest,
  campaignUnavailable,
  requiredMessage,
} from "../envelope";
import { centsToNumber } from "../money";
import type { Ambassador, Campaign, Reward, Store } from "../state";
import { canEarn, createAmbassador } from "../domain/ambassadors";
import { isActiveCampaign } from "../domain/campaigns";
import { createCommission, rewardAmount } from "../domain/commissions";
import { contactShort } from "../domain/webhook-shapes";
import { companyInfo, eventAmbassador, referringAmbassador } from "../render";
import {
  addressFields,
  creationInput,
  customFields,
  eventData,
  moneyParam,
  type OperationContext,
  type OperationDef,
} from "./shared";

interface EventInput {
  email: string;
  shortCode?: string;
  couponCode?: string;
  revenueCents: number;
  transactionUid: string | null;
  approved?: boolean;
}

/** What one campaign of an event would do, decided before anything is written. */
type Plan =
  | { ok: true; campaign: Campaign; referrer: Ambassador; initial: boolean; reward: Reward }
  | { ok: false; error: ApiError };

interface ReferrerLookup {
  referrer?: Ambassador;
  errors: string[];
}

/** short_code first, then coupon_code; codes are case-insensitive. */
function lookUpReferrer(store: Store, input: EventInput): ReferrerLookup {
  const errors: string[] = [];
  if (input.shortCode !== undefined) {
    const found = store.findByShortCode(input.shortCode);
    if (found) return { referrer: found.ambassador, errors };
    errors.push(`The short_code ${input.shortCode} does not exist.`);
  }
  if (input.couponCode !== undefined) {
    const found = store.findCoupon(input.couponCode);
    if (found) return { referrer: found.ambassador, errors: [] };
    errors.push(`The coupon_code ${input.couponCode} does not exist.`);
  }
  return { errors };
}

function plan(
  store: Store,
  campaignUid: string,
  input: EventInput,
  customer: Ambassador | undefined,
  lookup: ReferrerLookup,
  now: number,
): Plan {
  const fail = (...errors: string[]): Plan => ({ ok: false, error: badRequest(...errors) });
  const campaign = store.campaigns.get(campaignUid);
  if (!campaign || !isActiveCampaign(campaign, now)) return fail(campaignUnavailable(campaignUid));
  if (input.transactionUid !== null && store.hasTransaction(campaign.uid, input.transactionUid)) {
    return fail(DUPLICATE_TRANSACTION);
  }
  // Once referred in a campaign, a customer stays with the first referrer there;
  // codes sent with later events do not move them.
  const existing = customer ? store.referralOf(campaign.uid, customer.id) : undefined;
  const referrer = existing ? store.ambassadors.get(existing.referrerId) : lookup.referrer;
  if (!referrer) {
    if (lookup.errors.length > 0) return fail(...lookup.errors);
    return fail(requiredMessage(["short_code or coupon_code"], "POST"));
  }
  if (referrer.email === input.email) return fail("An ambassador cannot refer themselves: the email is the referrer's own.");
  if (!canEarn(referrer)) return fail(`The referring ambassador ${referrer.email} is deactivated and cannot earn commissions.`);
  return {
    ok: true,
    campaign,
    referrer,
    initial: !existing,
    reward: existing ? campaign.recurringReward : campaign.initialReward,
  };
}

function channelOfLastClick(store: Store, referrer: Ambassador, campaignUid: string): string | null {
  for (let i = store.clicks.length - 1; i >= 0; i--) {
    const click = store.clicks[i];
    if (click.ambassadorId === referrer.id && click.campaignUid === campaignUid) return click.channel;
  }
  return null;
}

/** The customer of the event: found by email, updated with the profile sent, or created. */
function upsertCustomer(ctx: OperationContext, existing: Ambassador | undefined, source: string): Ambassador {
  const { store, params } = ctx;
  if (!existing) return createAmbassador(store, creationInput(store, params, params.get("email")!, source), ctx.now);
  const firstName = params.get("first_name");
  const lastName = params.get("last_name");
  if (firstName !== undefined) existing.firstName = firstName;
  if (lastName !== undefined) existing.lastName = lastName;
  for (const [name, value] of Object.entries(customFields(params))) if (value !== undefined) existing.custom[name] = value;
  Object.assign(existing.address, addressFields(params));
  const uid = params.get("uid");
  if (uid !== undefined && existing.uid === null && !store.findByUid(uid)) store.changeUid(existing, uid);
  return existing;
}

function rememberIp(customer: Ambassador, ip: string | undefined): void {
  if (ip !== undefined && !customer.ipAddresses.includes(ip)) customer.ipAddresses.push(ip);
}

function apply(ctx: OperationContext, plan: Extract<Plan, { ok: true }>, customer: Ambassador, input: EventInput) {
  const { store, now } = ctx;
  rememberIp(customer, ctx.params.get("ip_address"));
  const { campaign, referrer } = plan;
  if (plan.initial) {
    const alreadyReferredBefore = store.referralsBy(referrer.id).some((r) => r.customerId === customer.id);
    store.addReferral({
      campaignUid: campaign.uid,
      referrerId: referrer.id,
      customerId: customer.id,
      createdMs: now,
      channel: channelOfLastClick(store, referrer, campaign.uid),
    });
    if (!alreadyReferredBefore) {
      store.emit("referral-created", { contact: contactShort(referrer), referred_contact: contactShort(customer) });
    }
  }
  const amount = rewardAmount(plan.reward, input.revenueCents);
  let commission: number | null = null;
  if (amount === null) {
    if (input.transactionUid !== null) store.addTransaction(campaign.uid, input.transactionUid);
  } else {
    const created = createCommission(store, {
      campaignUid: campaign.uid,
      affiliate: referrer,
      customer,
      customerUid: ctx.params.get("uid") ?? customer.uid,
      revenueCents: input.revenueCents,
      amount,
      reward: plan.reward,
      approved: input.approved ?? campaign.autoApprove,
      transactionUid: input.transactionUid,
      sandbox: campaign.sandbox || referrer.sandbox,
      eventData: eventData(ctx.params),
      now,
    });
    commission = centsToNumber(created.amountHundredths);
  }
  return {
    referring_ambassador: referringAmbassador(store, referrer, commission, { numeric: true }),
    ambassador: eventAmbassador(store, customer, { numeric: true }),
  };
}

function readInput(ctx: OperationContext): EventInput {
  const { params } = ctx;
  const revenueCents = moneyParam(params, "revenue") ?? 0;
  return {
    email: params.get("email")!.toLowerCase(),
    shortCode: params.get("short_code"),
    couponCode: params.get("coupon_code"),
    revenueCents,
    transactionUid: params.get("transaction_uid") ?? null,
    approved: params.flag("is_approved"),
  };
}

/**
 * Validates everything that could fail for the customer before the first write,
 * so a rejected call leaves no trace.
 */
function checkCustomer(ctx: OperationContext, customer: Ambassador | undefined, source: string): void {
  if (customer) {
    customFields(ctx.params);
    return;
  }
  const input = creationInput(ctx.store, ctx.params, ctx.params.get("email")!, source);
  if (input.uid && ctx.store.findByUid(input.uid)) throw badRequest(`The uid ${input.uid} is already used by another ambassador.`);
}

const record: OperationDef = {
  method: "POST",
  ledger: true,
  run(ctx) {
    const { params, store } = ctx;
    params.require("email", ["campaign_uid", "product_id"]);
    params.numbers({ integers: ["campaign_uid", "product_id"], decimals: ["revenue"] });
    const input = readInput(ctx);

    let campaignUid = params.has("campaign_uid") ? String(params.int("campaign_uid")) : undefined;
    if (campaignUid === undefined) {
      const product = String(params.int("product_id"));
      campaignUid = store.products.get(product);
      if (campaignUid === undefined) throw badRequest(`The product_id ${product} is not assigned to a campaign of the company.`);
    }
    const source = "api:event/record";
    const customer = store.findByEmail(input.email);
    checkCustomer(ctx, customer, source);
    const planned = plan(store, campaignUid, input, customer, lookUpReferrer(store, input), ctx.now);
    if (!planned.ok) throw planned.error;
    return apply(ctx, planned, upsertCustomer(ctx, customer, source), input);
  },
};

const multiRecord: OperationDef = {
  method: "POST",
  ledger: true,
  run(ctx) {
    const { params, store } = ctx;
    params.require("email", "campaign_uid");
    params.numbers({ decimals: ["revenue"] });
    const input = { ...readInput(ctx), couponCode: undefined };
    const campaignUids = [...new Set(params.list("campaign_uid") ?? [])];
    const source = "api:event/multi_record";
    const customer = store.findByEmail(input.email);
    checkCustomer(ctx, customer, source);

    const lookup = lookUpReferrer(store, input);
    const plans = campaignUids.map((uid) => [uid, plan(store, uid, input, customer, lookup, ctx.now)] as const);
    const anyOk = plans.some(([, p]) => p.ok);
    const person = anyOk ? upsertCustomer(ctx, customer, source) : undefined;

    const item: Record<string, unknown> = {};
    for (const [uid, p] of plans) {
      if (p.ok) {
        item[`campaign_${uid}`] = {
          code: "200",
          type: "OK",
          message: MESSAGES[200],
          data: { ...apply(ctx, p, person!, input), company: companyInfo(store) },
        };
      } else {
        item[`campaign_${uid}`] = { code: "400", type: "BAD REQUEST", message: MESSAGES[400], errors: p.error.errors };
      }
    }
    return { item };
  },
};

export const eventOperations: Record<string, OperationDef> = {
  "event/record": record,
  "event/multi_record": multiRecord,
};
