import type { FriendOffer, PrismaClient } from "@prisma/client";
import type { Campaign, ReferralClient } from "../../platform/referral-api";
import { toMinorUnit } from "../../platform/referral-api/money";
import type { AdminCallDeps } from "../../platform/shopify-admin/admin-call.server";
import { discountInput, discountMutationOf, discountTitle, NEW_CUSTOMERS_SEGMENT, type DiscountMutation } from "./discount-input";
import {
  addCodes,
  bulkCreationResults,
  CODES_PER_BULK_ADD,
  createDiscount,
  createSegment,
  deleteDiscount,
  discountHoldingCode,
  isTakenError,
  removeCodes,
  setDiscountActive,
  updateDiscount,
  type CodeResult,
  type ShopifyUserError,
} from "./offer-admin.server";
import { noteActiveAmbassador, refreshCodes } from "./offer-codes.server";
import { offerSettingsOf } from "./offer-state";
import { effectiveValue, type OfferSettings } from "./offer-settings";
import { shopCurrencyOf } from "../../platform/shopify-admin/shop-currency.server";

// Brings one campaign's friend's offer in Shopify in step with the program
// and the merchant's settings: the discount exists with the settings chosen,
// active unless paused, holding every active ambassador's code and no
// deactivated one's. Safe to run again at any point: every step looks at
// what is stored before it acts.

export interface OfferSyncDeps {
  db: PrismaClient;
  client: ReferralClient;
  admin: AdminCallDeps;
  now(): Date;
  /** First wait before asking whether a bulk code creation has run; doubles each time. */
  pollMs?: number;
  maxPolls?: number;
}

export type SyncResult = { state: "synced" | "idle" } | { state: "retry"; reason: string } | { state: "stopped"; reason: string };

export const TAKEN_DETAIL = "Another discount in your shop already uses this code, so the app left it as it is.";

interface Applied {
  mutation: DiscountMutation;
  input: Record<string, unknown>;
  paused: boolean;
}

function readApplied(text: string | null): Applied | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as Applied;
  } catch {
    return null;
  }
}

function userErrorWords(errors: ShopifyUserError[]): string {
  return errors.map((e) => e.message).join(" ");
}

class Stop extends Error {}

export async function syncOffer(
  deps: OfferSyncDeps,
  shop: string,
  campaignUid: string,
  only: { email?: string } = {},
): Promise<SyncResult> {
  const { db } = deps;
  const key = { shop, campaignUid };
  let offer = await db.friendOffer.findUnique({ where: { shop_campaignUid: key } });
  if (!offer) return { state: "idle" };
  const note = async (data: Partial<FriendOffer>) => {
    offer = await db.friendOffer.update({ where: { id: offer!.id }, data });
  };
  try {
    const company = await deps.client.getCompany();
    const campaign = company.campaigns.find((c) => c.campaignUid === campaignUid);
    if (!campaign) {
      const applied = readApplied(offer.appliedSettings);
      if (offer.discountId && !applied?.paused) await pauseInShopify(deps, offer.discountId, applied, note);
      throw new Stop("The campaign isn't active in your referral program, so its offer is off in Shopify.");
    }
    if (only.email) {
      const known = await db.offerCode.findUnique({ where: { shop_campaignUid_email: { ...key, email: only.email.toLowerCase() } } });
      await noteActiveAmbassador(db, deps.client, key, only.email, known ?? undefined);
    } else {
      await refreshCodes(db, deps.client, key);
    }
    const wanted = await wantedDiscount(deps, offer, campaign, company.company.companyName ?? "Referral", note);
    if (!(await ensureDiscount(deps, offer, wanted, note))) {
      await note({ lastSyncAt: deps.now(), lastError: null });
      return { state: "idle" };
    }
    await addWaitingCodes(deps, offer.discountId!, key);
    await removeDeactivatedCodes(deps, offer.discountId!, key);
    await note({ lastSyncAt: deps.now(), lastError: null });
    return { state: "synced" };
  } catch (error) {
    if (error instanceof Stop) {
      await note({ lastSyncAt: deps.now(), lastError: error.message });
      return { state: "stopped", reason: error.message };
    }
    throw error;
  }
}

async function wantedDiscount(
  deps: OfferSyncDeps,
  offer: FriendOffer,
  campaign: Campaign,
  programName: string,
  note: (data: Partial<FriendOffer>) => Promise<void>,
): Promise<Applied> {
  const chosen = offerSettingsOf(offer);
  const wantedValue = effectiveValue(chosen, campaign.discountValue);
  if (wantedValue === null && chosen.kind !== "free_shipping") {
    throw new Stop("Set how much the friend gets: the campaign has no discount value at the referral service.");
  }
  const { settings, value } = await inShopCurrency(deps, chosen, wantedValue);
  let segmentId = offer.segmentId;
  if (settings.eligibility === "new_customers" && !segmentId) {
    segmentId = await createSegment(deps.admin, NEW_CUSTOMERS_SEGMENT.name, NEW_CUSTOMERS_SEGMENT.query);
    await note({ segmentId });
  }
  const input = discountInput(settings, {
    title: discountTitle(programName, campaign.campaignName ?? `Campaign ${campaign.campaignUid}`),
    startsAt: campaign.startDate ?? offer.createdAt,
    endsAt: campaign.endDate,
    value,
    segmentId,
  });
  return { mutation: discountMutationOf(settings), input, paused: offer.paused };
}

/**
 * Amounts in the shop's currency are sent rounded to its minor unit, as store
 * credit is (toMinorUnit): 7.50 off in a yen shop is 8 yen. A percentage is no
 * amount. An amount that rounds to nothing is not sent.
 */
async function inShopCurrency(
  deps: OfferSyncDeps,
  settings: OfferSettings,
  value: string | null,
): Promise<{ settings: OfferSettings; value: string | null }> {
  const amountOff = settings.kind === "fixed_amount" && value !== null;
  if (!amountOff && !settings.minimumSubtotal) return { settings, value };
  const currency = await shopCurrencyOf(deps.admin);
  const rounded = amountOff ? toMinorUnit(value, currency) : value;
  if (amountOff && Number(rounded) === 0) {
    throw new Stop(`The friend's amount (${value}) is less than the smallest amount in ${currency}: set a larger amount.`);
  }
  const minimumSubtotal = settings.minimumSubtotal ? toMinorUnit(settings.minimumSubtotal, currency) : null;
  return { settings: { ...settings, minimumSubtotal }, value: rounded };
}

async function pauseInShopify(deps: OfferSyncDeps, discountId: string, applied: Applied | null, note: (data: Partial<FriendOffer>) => Promise<void>) {
  const errors = await setDiscountActive(deps.admin, discountId, false);
  if (errors.length > 0) throw new Stop(`Shopify didn't turn the offer off: ${userErrorWords(errors)}`);
  if (applied) await note({ appliedSettings: JSON.stringify({ ...applied, paused: true }) });
}

/** The discount as wanted; false when it cannot exist yet (no code to create it with). */
async function ensureDiscount(
  deps: OfferSyncDeps,
  offer: FriendOffer,
  wanted: Applied,
  note: (data: Partial<FriendOffer>) => Promise<void>,
): Promise<boolean> {
  const { db } = deps;
  const key = { shop: offer.shop, campaignUid: offer.campaignUid };
  const applied = readApplied(offer.appliedSettings);
  if (offer.discountId && applied && applied.mutation !== wanted.mutation) {
    // Shopify cannot turn an amount-off discount into free shipping: a new one takes the codes.
    const errors = await deleteDiscount(deps.admin, offer.discountId);
    if (errors.length > 0) throw new Stop(`Shopify didn't remove the old discount: ${userErrorWords(errors)}`);
    await db.offerCode.updateMany({ where: { ...key, state: "added" }, data: { state: "waiting", redeemCodeId: null } });
    await db.offerCode.updateMany({ where: { ...key, state: "removing" }, data: { state: "removed" } });
    await note({ discountId: null, appliedSettings: null });
    return createWithFirstCode(deps, offer, wanted, note);
  }
  if (!offer.discountId) return createWithFirstCode(deps, offer, wanted, note);

  if (wanted.paused) {
    if (!applied?.paused) await pauseInShopify(deps, offer.discountId, applied, note);
    return true;
  }
  if (applied?.paused) {
    const errors = await setDiscountActive(deps.admin, offer.discountId, true);
    if (errors.length > 0) throw new Stop(`Shopify didn't turn the offer back on: ${userErrorWords(errors)}`);
  }
  if (!applied || applied.paused || JSON.stringify(applied.input) !== JSON.stringify(wanted.input)) {
    const errors = await updateDiscount(deps.admin, wanted.mutation, offer.discountId, wanted.input);
    if (errors.length > 0) throw new Stop(`Shopify refused the offer's settings: ${userErrorWords(errors)}`);
    await note({ appliedSettings: JSON.stringify(wanted) });
  }
  return true;
}

async function createWithFirstCode(
  deps: OfferSyncDeps,
  offer: FriendOffer,
  wanted: Applied,
  note: (data: Partial<FriendOffer>) => Promise<void>,
): Promise<boolean> {
  const key = { shop: offer.shop, campaignUid: offer.campaignUid };
  for (;;) {
    const first = await deps.db.offerCode.findFirst({ where: { ...key, state: "waiting" }, orderBy: { createdAt: "asc" } });
    if (!first) return false;
    const created = await createDiscount(deps.admin, wanted.mutation, { ...wanted.input, code: first.code });
    if (created.ok) {
      await deps.db.offerCode.update({ where: { id: first.id }, data: { state: "added", redeemCodeId: created.redeemCodeId, detail: null } });
      const applied = { ...wanted, paused: false };
      await note({ discountId: created.discountId, appliedSettings: JSON.stringify(applied) });
      if (wanted.paused) await pauseInShopify(deps, created.discountId, applied, note);
      return true;
    }
    if (!created.codeTaken) throw new Stop(`Shopify refused the offer: ${userErrorWords(created.errors)}`);
    await deps.db.offerCode.update({ where: { id: first.id }, data: { state: "taken", detail: TAKEN_DETAIL } });
  }
}

async function followBulkCreation(deps: OfferSyncDeps, id: string): Promise<CodeResult[]> {
  const pollMs = deps.pollMs ?? 500;
  const maxPolls = deps.maxPolls ?? 6;
  for (let poll = 0; poll < maxPolls; poll += 1) {
    await deps.admin.sleep(pollMs * 2 ** poll);
    const results = await bulkCreationResults(deps.admin, id);
    if (results) return results;
  }
  throw new Error("Shopify is still adding the codes; the app checks again shortly.");
}

async function addWaitingCodes(deps: OfferSyncDeps, discountId: string, key: { shop: string; campaignUid: string }) {
  const { db } = deps;
  for (;;) {
    const batch = await db.offerCode.findMany({ where: { ...key, state: "waiting" }, orderBy: { createdAt: "asc" }, take: CODES_PER_BULK_ADD });
    if (batch.length === 0) return;
    const started = await addCodes(deps.admin, discountId, batch.map((c) => c.code));
    if (!started.ok) throw new Stop(`Shopify refused the codes: ${userErrorWords(started.errors)}`);
    const results = await followBulkCreation(deps, started.bulkCreationId);
    const byCode = new Map(results.map((r) => [r.code.toUpperCase(), r]));
    for (const row of batch) {
      const result = byCode.get(row.code.toUpperCase());
      const data = await codeOutcome(deps, discountId, result);
      await db.offerCode.update({ where: { id: row.id }, data });
    }
  }
}

async function codeOutcome(deps: OfferSyncDeps, discountId: string, result: CodeResult | undefined) {
  if (!result) return { state: "taken", detail: "Shopify didn't say what became of this code." };
  if (result.errors.length === 0) return { state: "added", redeemCodeId: result.redeemCodeId, detail: null };
  if (result.errors.some(isTakenError)) {
    // Taken by this very discount: an earlier run's bulk creation whose answer was lost.
    if ((await discountHoldingCode(deps.admin, result.code)) === discountId) return { state: "added", detail: null };
    return { state: "taken", detail: TAKEN_DETAIL };
  }
  return { state: "taken", detail: `Shopify refused this code: ${userErrorWords(result.errors)}` };
}

async function removeDeactivatedCodes(deps: OfferSyncDeps, discountId: string, key: { shop: string; campaignUid: string }) {
  const { db } = deps;
  for (;;) {
    const batch = await db.offerCode.findMany({ where: { ...key, state: "removing" }, take: CODES_PER_BULK_ADD });
    if (batch.length === 0) return;
    const ids = batch.map((c) => c.redeemCodeId).filter((id): id is string => Boolean(id));
    if (ids.length > 0) {
      const errors = await removeCodes(deps.admin, discountId, ids);
      if (errors.length > 0) throw new Stop(`Shopify didn't remove deactivated ambassadors' codes: ${userErrorWords(errors)}`);
    }
    await db.offerCode.updateMany({
      where: { id: { in: batch.map((c) => c.id) } },
      data: { state: "removed", detail: "The ambassador was deactivated" },
    });
  }
}
