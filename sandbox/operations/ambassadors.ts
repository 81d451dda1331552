import { badRequest, notFound } from "../envelope";
import { DAY_MS, formatDate, startOfDay } from "../dates";
import { parseCents } from "../money";
import { isValidEmail, type Ambassador, type Store } from "../state";
import { activeCampaigns } from "../domain/campaigns";
import { replaceGroups, resolveGroupIds, sendWelcomeEmail, setActive } from "../domain/ambassadors";
import { statsBlock } from "../stats";
import {
  ambassadorCore,
  campaignLink,
  companyInfo,
  fullAmbassador,
  listAmbassador,
  referringAmbassador,
} from "../render";
import {
  addressFields,
  customFields,
  describeIdentity,
  findByUidOrEmail,
  findOrCreateByEmail,
  paginate,
  type OperationDef,
} from "./shared";

function referrerOf(store: Store, ambassador: Ambassador) {
  const referral = store.referralOfCustomer(ambassador.id);
  const referrer = referral && store.ambassadors.get(referral.referrerId);
  return referrer ? referringAmbassador(store, referrer, null) : null;
}

const get: OperationDef = {
  method: "GET",
  run(ctx) {
    const { params, store } = ctx;
    params.require("email");
    const autoCreate = params.flag("auto_create") ?? false;
    const setGroups = params.list("set_groups");
    const groups = setGroups === undefined ? undefined : resolveGroupIds(store, setGroups, "set_groups");
    const { ambassador, created } = findOrCreateByEmail(ctx, "api:ambassador/get", autoCreate);
    if (!created && groups !== undefined) replaceGroups(store, ambassador, groups);
    const sandboxAsBoolean = autoCreate && !params.has("sandbox");
    return {
      referring_ambassador: referrerOf(store, ambassador),
      ambassador: fullAmbassador(store, ambassador, { sandboxAsBoolean }),
    };
  },
};

const stats: OperationDef = {
  method: "GET",
  run(ctx) {
    const { params, store } = ctx;
    params.require("email");
    const start = params.date("start_date");
    const end = params.date("end_date");
    const { ambassador } = findOrCreateByEmail(ctx, "api:ambassador/stats");
    const fromMs = startOfDay(start?.ms ?? ambassador.createdMs);
    const lastDay = startOfDay(end?.ms ?? ctx.now);
    if (lastDay < fromMs) throw badRequest("The start_date must not be after the end_date.");
    const scope = { ambassadorId: ambassador.id, fromMs, toMs: lastDay + DAY_MS };
    const core = ambassadorCore(store, ambassador);
    return {
      referring_ambassador: referrerOf(store, ambassador),
      ambassador: {
        ...core,
        stats_summary: { ...statsBlock(store, scope), start_date: formatDate(fromMs), end_date: formatDate(lastDay) },
        campaign_links: activeCampaigns(store, ctx.now).map((campaign) => {
          const block = statsBlock(store, { ...scope, campaignUid: campaign.uid });
          return { ...campaignLink(store, ambassador, campaign), unique_referrals: block.unique_referrals, stats: block };
        }),
      },
      company: companyInfo(store),
    };
  },
};

const all: OperationDef = {
  method: "GET",
  run(ctx) {
    const { params, store } = ctx;
    params.numbers({ integers: ["page", "min_points", "min_referrals", "sandbox", "group"], decimals: ["min_money"] }, "POST");
    const minMoney = params.has("min_money") ? parseCents(params.get("min_money")!) : undefined;
    const minPoints = params.int("min_points");
    const minReferrals = params.int("min_referrals");
    const email = params.get("email")?.toLowerCase();
    const uid = params.get("uid");
    const active = params.flag("is_active");
    const before = params.date("created_at__lte");
    const after = params.date("created_at__gte");
    const sandbox = params.int("sandbox");
    const group = params.get("group");
    // A bare date in created_at__lte means "on or before that day", so the whole day counts.
    const beforeLimit = before && (before.dateOnly ? before.ms + DAY_MS - 1 : before.ms);

    const matches = [...store.ambassadors.values()].filter(
      (a) =>
        (minMoney === undefined || a.balanceCents >= minMoney) &&
        (minPoints === undefined || a.balancePoints >= minPoints) &&
        (minReferrals === undefined || store.uniqueReferrals(a.id) >= minReferrals) &&
        (email === undefined || a.email === email) &&
        (uid === undefined || a.uid === uid) &&
        (active === undefined || a.active === active) &&
        (beforeLimit === undefined || a.createdMs <= beforeLimit) &&
        (after === undefined || a.createdMs >= after.ms) &&
        (sandbox === undefined || a.sandbox === (sandbox === 1)) &&
        (group === undefined || a.groups.includes(group)),
    );
    matches.sort((x, y) => x.createdMs - y.createdMs || x.id - y.id);
    return { ambassadors: paginate(matches, params.int("page")).map((a) => listAmbassador(store, a)) };
  },
};

const update: OperationDef = {
  method: "POST",
  run(ctx) {
    const { params, store } = ctx;
    params.require(["uid", "email"]);
    const ambassador = findByUidOrEmail(store, params);
    if (!ambassador) throw notFound(`No ambassador exists with ${describeIdentity(params)}.`);

    // Check everything first: a rejected update changes nothing.
    const newEmail = params.get("new_email")?.toLowerCase();
    if (newEmail !== undefined) {
      if (!isValidEmail(newEmail)) throw badRequest(`The email address ${newEmail} is not valid.`);
      const owner = store.findByEmail(newEmail);
      if (owner && owner !== ambassador) throw badRequest(`The email address ${newEmail} is already used by another ambassador.`);
    }
    const newUid = params.get("new_uid");
    if (newUid !== undefined) {
      const owner = store.findByUid(newUid);
      if (owner && owner !== ambassador) throw badRequest(`The uid ${newUid} is already used by another ambassador.`);
    }
    const custom = customFields(params);
    const deactivate = params.flag("is_deactivated");
    const welcome = params.flag("send_welcome_email");
    const setGroups = params.list("set_groups");
    const groups = setGroups === undefined ? undefined : resolveGroupIds(store, setGroups, "set_groups");

    if (newEmail !== undefined) store.changeEmail(ambassador, newEmail);
    if (newUid !== undefined) store.changeUid(ambassador, newUid);
    const firstName = params.get("first_name");
    const lastName = params.get("last_name");
    if (firstName !== undefined) ambassador.firstName = firstName;
    if (lastName !== undefined) ambassador.lastName = lastName;
    for (const [name, value] of Object.entries(custom)) if (value !== undefined) ambassador.custom[name] = value;
    Object.assign(ambassador.address, addressFields(params));
    const company = params.get("company");
    if (company !== undefined) ambassador.company = company;
    const paypal = params.get("paypal_email");
    if (paypal !== undefined) ambassador.paypalEmail = paypal;
    if (groups !== undefined) replaceGroups(store, ambassador, groups);
    if (deactivate === true && (ambassador.active || ambassador.status !== "banned")) setActive(store, ambassador, false, ctx.now);
    if (deactivate === false && !ambassador.active) setActive(store, ambassador, true, ctx.now);
    if (welcome) sendWelcomeEmail(store, ambassador, ctx.now);
    return { message: "The ambassador was updated." };
  },
};

export const ambassadorOperations: Record<string, OperationDef> = {
  "ambassador/get": get,
  "ambassador/stats": stats,
  "ambassador/all": all,
  "ambassador/update": update,
};
