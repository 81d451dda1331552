import { DUPLICATE_TRANSACTION, INVALID_CAMPAIGN, NOT_PENDING, badRequest, notFound } from "../envelope";
import type { Commission, Store } from "../state";
import { createAmbassador } from "../domain/ambassadors";
import { isActiveCampaign } from "../domain/campaigns";
import { changeState, createCommission, isPercentageReward, rewardAmount } from "../domain/commissions";
import { commissionItem } from "../render";
import {
  creationInput,
  describeIdentity,
  eventData,
  findByUidOrEmail,
  moneyParam,
  paginate,
  type OperationDef,
} from "./shared";

const all: OperationDef = {
  method: "POST",
  run({ params, store }) {
    params.numbers({ integers: ["page"] });
    const email = params.get("email")?.toLowerCase();
    const uid = params.get("uid");
    const state = params.get("is_approved");
    if (state !== undefined && !["0", "1", "2"].includes(state)) {
      throw badRequest(`The following ${params.wording} parameter is invalid: is_approved (0, 1 or 2).`);
    }
    const sandbox = params.flag("sandbox");
    const welcome = params.flag("is_welcome_bonus");
    const before = params.date("created_at__lte");
    const after = params.date("created_at__gte");
    const affiliateOf = (c: Commission) => store.ambassadors.get(c.affiliateId);

    const matches = [...store.commissions.values()].filter(
      (c) =>
        (email === undefined || affiliateOf(c)?.email === email) &&
        (uid === undefined || affiliateOf(c)?.uid === uid) &&
        (state === undefined || String(c.state) === state) &&
        (sandbox === undefined || c.sandbox === sandbox) &&
        (welcome === undefined || c.welcomeBonus === welcome) &&
        // A bare date is taken as midnight: "before the date" excludes that day.
        (before === undefined || (before.dateOnly ? c.createdMs < before.ms : c.createdMs <= before.ms)) &&
        (after === undefined || c.createdMs >= after.ms),
    );
    matches.sort((x, y) => x.createdMs - y.createdMs || x.id - y.id);
    return { commissions: paginate(matches, params.int("page")).map((c) => commissionItem(store, c)) };
  },
};

function findTargets(store: Store, commissionUid: string | undefined, transactionUid: string | undefined, campaignUid: string | undefined) {
  if (commissionUid !== undefined) {
    const commission = /^\d+$/.test(commissionUid) ? store.commissions.get(Number(commissionUid)) : undefined;
    if (!commission) throw notFound(`No commission exists with the commission_uid ${commissionUid}.`);
    return [commission];
  }
  const matches = store
    .commissionsByTransaction(transactionUid!)
    .filter((c) => campaignUid === undefined || c.campaignUid === campaignUid);
  if (matches.length === 0) {
    const where = campaignUid === undefined ? "" : ` in the campaign ${campaignUid}`;
    throw notFound(`No commission exists with the transaction_uid ${transactionUid}${where}.`);
  }
  return matches;
}

const update: OperationDef = {
  method: "GET",
  run({ params, store, now }) {
    params.require(["commission_uid", "transaction_uid"]);
    const state = params.get("is_approved");
    if (state !== undefined && state !== "1" && state !== "2") {
      throw badRequest(`The following ${params.wording} parameter is invalid: is_approved (1 approve, 2 deny).`);
    }
    const revenue = moneyParam(params, "revenue");
    const data = eventData(params);
    if (state === undefined && revenue === null && data.every((d) => d === null)) {
      throw badRequest("Nothing to update: send is_approved, revenue or event_data1, event_data2, event_data3.");
    }
    const targets = findTargets(store, params.get("commission_uid"), params.get("transaction_uid"), params.get("campaign_uid"));
    // A transaction_uid may match one commission per campaign; without campaign_uid all pending ones change.
    const pending = targets.filter((c) => c.state === 0);
    if (pending.length === 0) throw badRequest(NOT_PENDING);

    for (const commission of pending) {
      if (revenue !== null) {
        commission.revenueCents = revenue;
        if (commission.reward && isPercentageReward(commission.reward)) {
          commission.amountHundredths = rewardAmount(commission.reward, revenue)!.hundredths;
        }
      }
      data.forEach((value, i) => {
        if (value !== null) commission.eventData[i] = value;
      });
      if (state !== undefined) changeState(store, commission, state === "1" ? 1 : 2, now);
    }
    return {
      message: pending.length === 1 ? "The commission was updated." : `${pending.length} commissions were updated.`,
    };
  },
};

const add: OperationDef = {
  method: "POST",
  run(ctx) {
    const { params, store, now } = ctx;
    params.require(["uid", "email"], "campaign_uid", "amount");
    params.numbers({ decimals: ["amount", "revenue"] });
    const campaign = store.campaigns.get(params.get("campaign_uid")!);
    if (!campaign || !isActiveCampaign(campaign, now)) throw badRequest(INVALID_CAMPAIGN);

    const points = campaign.initialReward.type === "N" || campaign.initialReward.type === "M";
    const amount = moneyParam(params, "amount")!;
    if (amount <= 0) throw badRequest("The amount must be greater than zero.");
    if (points && amount % 100 !== 0) throw badRequest("The amount of points must be a whole number.");
    const revenue = moneyParam(params, "revenue") ?? 0;
    const transactionUid = params.get("transaction_uid") ?? null;
    if (transactionUid !== null && store.hasTransaction(campaign.uid, transactionUid)) throw badRequest(DUPLICATE_TRANSACTION);
    const approved = params.flag("is_approved") ?? false;

    let affiliate = findByUidOrEmail(store, params);
    if (!affiliate) {
      const email = params.get("email");
      if (!(params.flag("auto_create") ?? false) || email === undefined) {
        throw notFound(`No ambassador exists with ${describeIdentity(params)}.`);
      }
      // A new ambassador takes the uid it was looked up by.
      affiliate = createAmbassador(store, creationInput(store, params, email, "api:commission/add"), now);
    }
    const customerEmail = params.get("customer_email")?.toLowerCase() ?? null;
    const commission = createCommission(store, {
      campaignUid: campaign.uid,
      affiliate,
      referringUid: params.get("referrer_uid") ?? affiliate.uid,
      customer: customerEmail === null ? null : (store.findByEmail(customerEmail) ?? null),
      customerEmail,
      customerUid: params.get("customer_uid") ?? null,
      revenueCents: revenue,
      amount: { unit: points ? "points" : "money", hundredths: amount },
      reward: null,
      approved,
      transactionUid,
      sandbox: campaign.sandbox || affiliate.sandbox,
      eventData: eventData(params),
      now,
    });
    return { message: "The commission was added.", commission_uid: commission.id };
  },
};

export const commissionOperations: Record<string, OperationDef> = {
  "commission/all": all,
  "commission/update": update,
  "commission/add": add,
};
