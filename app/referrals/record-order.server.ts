import type { Shop } from "@prisma/client";
import type { z } from "zod";
import { isDuplicateTransaction, isReferralApiError, type ReferralClient } from "../referral-api";
import { findOfferCode } from "../offers/offer-code-owner.server";
import type { CodeOwner } from "./code-directory.server";
import { findPixelSignal, type PixelSignalFound } from "./pixel-signals.server";
import { SIGNAL_NAMES, type Explanation, type SignalNote, type SignalSource } from "./explanation";
import { runGuard } from "./guard";
import { gatherGuardFacts } from "./guard-facts.server";
import { readGuardSettings, type GuardSettings } from "./guard-settings";
import { findOrderRecord, parseJsonObject, updateOrderRecord, type CampaignResult, type CampaignResults } from "./order-records.server";
import type { RECORD_ORDER_JOB } from "./job-kinds";
import type { OrderJobContext } from "./order-job-context";
import { commissionStateAfter } from "./commission-state";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "./pipeline-settings";
import { classifyRefusal } from "./service-refusals";
import { outcomeOfServiceError } from "../connection/service-outcome";
import { done, type JobOutcome } from "../queue/outcome";

type Payload = z.infer<(typeof RECORD_ORDER_JOB)["payload"]>;
type Event = Payload["event"];
type Params = Event["params"];

// Precedence (docs/decisions/009-attribution-precedence.md): a friend's offer
// code (a discount code the app itself put in Shopify for one ambassador)
// settles it at once, without asking the service. Otherwise the referral link
// comes first: the code kept in the cart, else the one the web pixel sent for
// this checkout, else the landing page's. Then the discount codes in Shopify's
// order. The first code the referral service knows as a referrer's wins; the
// others are noted.

/** A campaign the service has settled for this order; it is not sent again. */
const SETTLED = new Set<CampaignResult["state"]>(["recorded", "not_referred", "blocked"]);

interface Candidate {
  code: string;
  source: SignalSource;
  note: SignalNote;
}

type LinkSource = "cart_attribute" | "pixel" | "landing_page";

const LINK_WORDS: Record<LinkSource, { link: string; whose: string }> = {
  cart_attribute: { link: "the link kept in the cart", whose: "the cart's" },
  pixel: { link: "the link the web pixel sent", whose: "the web pixel's" },
  landing_page: { link: "the landing page's link", whose: "the landing page's" },
};

function signalsOf(event: Event, offerCode: string | null, pixel: PixelSignalFound | null): { notes: SignalNote[]; candidates: Candidate[] } {
  const signals = event.signals ?? {
    ...(event.params.shortCode && event.codeSource === "landing_site" ? { landingPage: event.params.shortCode } : {}),
    ...(event.params.shortCode && event.codeSource !== "landing_site" ? { cartAttribute: event.params.shortCode } : {}),
    discountCodes: event.params.couponCode ? [event.params.couponCode] : [],
  };
  const notes: SignalNote[] = [];
  const candidates: Candidate[] = [];
  const add = (source: SignalSource, code: string, candidate: boolean, outcome = "Not looked at: an earlier signal won") => {
    const note: SignalNote = { source, code, outcome };
    notes.push(note);
    if (candidate) candidates.push({ code, source, note });
  };
  // The referral link: the first of these present is the candidate; the others are noted.
  const links: [LinkSource, string | undefined][] = [
    ["cart_attribute", signals.cartAttribute],
    ["pixel", pixel?.code],
    ["landing_page", signals.landingPage],
  ];
  let first: { source: LinkSource; code: string } | undefined;
  for (const [source, code] of links) {
    if (!code) continue;
    if (!first) {
      first = { source, code };
      add(source, code, true);
    } else if (first.code.toUpperCase() === code.toUpperCase()) add(source, code, false, `Same code as ${LINK_WORDS[first.source].whose}`);
    else add(source, code, false, `Not used: ${LINK_WORDS[first.source].link} comes first`);
  }
  for (const code of signals.discountCodes) add(code === offerCode ? "offer_code" : "discount_code", code, true);
  // The offer code goes first; the order of the others stays.
  candidates.sort((a, b) => Number(b.source === "offer_code") - Number(a.source === "offer_code"));
  return { notes, candidates };
}

/** What the service's refusal means for one campaign. */
function refusalResult(errors: string[], message: string): CampaignResult {
  const refusal = classifyRefusal(errors);
  switch (refusal.kind) {
    case "unknown_short_code":
    case "unknown_coupon":
      return { state: "not_referred", codeUnknown: true, detail: errors.join(" ") };
    case "no_code":
      return { state: "not_referred", detail: "No referral code, and the customer was never referred" };
    case "self_referral":
      return { state: "blocked", detail: `Self-referral: the referral service refused it (${refusal.text})` };
    case "referrer_inactive":
      return { state: "blocked", detail: `The referrer can't earn: ${refusal.text}` };
    case "other":
      return { state: "failed", detail: errors.length > 0 ? errors.join(" ") : message };
  }
}

async function recordOneByOne(client: ReferralClient, campaigns: string[], params: Params, results: CampaignResults) {
  for (const campaignUid of campaigns) {
    try {
      const answer = await client.recordEvent({ ...params, campaignUid });
      results[campaignUid] = { state: "recorded", referrer: answer.referringAmbassador?.email ?? null };
    } catch (error) {
      if (isDuplicateTransaction(error)) results[campaignUid] = { state: "recorded", duplicate: true };
      else if (isReferralApiError(error) && error.kind === "invalid_request") results[campaignUid] = refusalResult(error.errors, error.message);
      else throw error;
    }
  }
}

async function recordTogether(client: ReferralClient, campaigns: string[], params: Params, results: CampaignResults) {
  const { couponCode: _coupon, ...multiParams } = params;
  const answer = await client.recordMultiEvent({ ...multiParams, campaignUid: campaigns });
  for (const item of answer.items) {
    if (item.ok) results[item.campaignUid] = { state: "recorded", referrer: item.data.referringAmbassador?.email ?? null };
    else if (item.duplicate) results[item.campaignUid] = { state: "recorded", duplicate: true };
    else results[item.campaignUid] = refusalResult(item.errors, item.message ?? "rejected");
  }
}

/** Sends the order to every campaign still to do; false when the service knew the code in none of them. */
async function send(client: ReferralClient, campaigns: string[], params: Params, results: CampaignResults): Promise<boolean> {
  if (campaigns.length > 1 && params.shortCode) await recordTogether(client, campaigns, params, results);
  else await recordOneByOne(client, campaigns, params, results);
  if (campaigns.every((uid) => results[uid]?.codeUnknown)) {
    for (const uid of campaigns) delete results[uid];
    return false;
  }
  return true;
}

interface Decision {
  explanation: Explanation;
  flags: string[];
}

async function decideAndSend(
  ctx: OrderJobContext,
  shop: string,
  orderId: string,
  client: ReferralClient,
  event: Event,
  todo: string[],
  results: CampaignResults,
  shopSettings: { guard: GuardSettings; sendWithoutCode: boolean },
  placedAt: Date,
  pixel: PixelSignalFound | null,
): Promise<Decision> {
  const codes = ctx.codes;
  const offer = await findOfferCode(ctx.db, shop, event.signals?.discountCodes ?? []);
  const { notes, candidates } = signalsOf(event, offer?.code ?? null, pixel);
  const explanation: Explanation = { signals: notes, winner: null, guard: [], decision: "" };
  const flags: string[] = [];
  const base: Params = { ...event.params, shortCode: undefined, couponCode: undefined };

  for (const candidate of candidates) {
    const { code, source, note } = candidate;
    const isDiscount = source === "discount_code";
    if (isDiscount && codes.isKnownPromotion(shop, code)) {
      note.outcome = "The store's own discount code (not a referral coupon at the service)";
      continue;
    }
    const owner: CodeOwner | null =
      source === "offer_code" && offer ? { email: offer.email, uid: null, valid: true } : await codes.shortCodeOwner(client, shop, code);
    if (!owner && !isDiscount) {
      note.outcome = "Not a referral code at the service";
      continue;
    }
    const sentAs = owner ? "short_code" : "coupon_code";
    const facts = await gatherGuardFacts({
      db: ctx.db,
      client,
      codes,
      shop,
      orderId,
      placedAt,
      settings: shopSettings.guard,
      buyer: { email: event.params.email, customerId: event.params.uid, ip: event.params.ipAddress, ...event.buyer },
      code,
      owner: owner ?? undefined,
    });
    const guard = runGuard(shopSettings.guard, facts);
    const winner = { code, source, sentAs, referrer: owner?.email } as const;
    if (guard.blockedBy.length > 0) {
      const detail = `Blocked: ${guard.blockedBy.map((v) => `${v.label}${v.detail ? ` (${v.detail})` : ""}`).join("; ")}`;
      for (const uid of todo) results[uid] = { state: "blocked", detail };
      Object.assign(note, { won: true, outcome: `Referral code${owner ? ` of ${owner.email}` : ""}; the guard blocked it` });
      explanation.guard = guard.verdicts;
      explanation.winner = { ...winner, why: whyWon(source, sentAs) };
      return { explanation, flags };
    }
    const flagged = guard.flaggedBy.map((v) => v.rule);
    const params: Params = {
      ...base,
      ...(sentAs === "short_code" ? { shortCode: code } : { couponCode: code }),
      ...(flagged.length > 0 ? { isApproved: false, eventData3: `Flagged: ${flagged.join(", ")}` } : {}),
    };
    if (!(await send(client, todo, params, results))) {
      if (isDiscount) codes.rememberPromotion(shop, code);
      note.outcome = isDiscount ? "The store's own discount code (not a referral coupon at the service)" : "Not a referral code at the service";
      continue;
    }
    const referrer = owner?.email ?? Object.values(results).find((r) => r.referrer)?.referrer ?? undefined;
    Object.assign(note, { won: true, outcome: referrer ? `Referral code of ${referrer}` : "Referral code" });
    explanation.guard = guard.verdicts;
    explanation.winner = { ...winner, referrer, why: whyWon(source, sentAs) };
    flags.push(...flagged);
    return { explanation, flags };
  }

  if (shopSettings.sendWithoutCode) {
    // A customer referred before may earn their referrer a recurring commission.
    await send(client, todo, base, results);
  } else {
    for (const uid of todo) results[uid] = { state: "not_referred" };
  }
  return { explanation, flags };
}

function whyWon(source: SignalSource, sentAs: "short_code" | "coupon_code"): string {
  if (source === "offer_code") return "The friend's offer code: the app made this discount code for the referrer, so it settles the referral";
  const as = sentAs === "short_code" ? "a referrer's link code" : "a referrer's coupon";
  if (source === "discount_code") return `The first discount code the referral service knows as ${as}`;
  return `${SIGNAL_NAMES[source]} comes first, and the referral service knows it as ${as}`;
}

/** Why an order was not referred, naming its codes. */
function notReferredReason(explanation: Explanation): string {
  if (explanation.signals.length === 0) return "Not referred: no referral code on the order, and the customer was never referred";
  const parts = explanation.signals.map((s) =>
    s.source === "discount_code" ? `${s.code} is the store's own discount code` : `link code ${s.code} isn't known at the referral service`,
  );
  return `Not referred: ${parts.join("; ")}`;
}

function summarise(results: CampaignResults, campaigns: string[], explanation: Explanation) {
  const of = (state: CampaignResult["state"]) => campaigns.filter((uid) => results[uid]?.state === state);
  const failed = of("failed");
  if (failed.length > 0) return { status: "failed", reason: failed.map((uid) => `Campaign ${uid}: ${results[uid]!.detail}`).join(" ") } as const;
  if (of("recorded").length > 0) return { status: "recorded", reason: null } as const;
  const blocked = of("blocked");
  if (blocked.length > 0) return { status: "blocked", reason: results[blocked[0]!]!.detail ?? "Blocked" } as const;
  return { status: "not_referred", reason: notReferredReason(explanation) } as const;
}

function decisionText(summary: ReturnType<typeof summarise>, explanation: Explanation, flags: string[]): string {
  if (summary.status === "recorded") {
    const winner = explanation.winner;
    const credited = winner ? `Credited${winner.referrer ? ` to ${winner.referrer}` : ""} through ${winner.code}` : "Credited to the customer's earlier referrer";
    return flags.length > 0 ? `${credited}; sent as pending because the guard flagged it` : credited;
  }
  return summary.reason ?? "";
}

type ChoiceColumns = Pick<Shop, "campaignUids" | "scope" | "guardRules" | "guardDailyLimit">;

/** The shop's choices, from the row the connection was read with when it came along. */
async function shopChoices(ctx: OrderJobContext, shop: string, read?: ChoiceColumns) {
  const row = read ?? (await ctx.db.shop.findUnique({ where: { shop }, select: { campaignUids: true, scope: true, guardRules: true, guardDailyLimit: true } }));
  const pipeline = readPipelineSettings({ ...PIPELINE_DEFAULTS, ...(row ? { campaignUids: row.campaignUids, scope: row.scope } : {}) });
  return { campaignUids: pipeline.campaignUids, sendWithoutCode: pipeline.scope === "all_orders", guard: readGuardSettings(row ?? {}) };
}

/**
 * The campaigns to record in. A campaign the link named goes alone when the
 * shop tracks it: the cart's was applied at intake; the pixel's counts when
 * the cart named none.
 */
function chooseCampaigns(event: Event, shopCampaigns: string[], pixel: PixelSignalFound | null): string[] {
  const campaigns = event.campaignUids.length > 0 ? event.campaignUids : shopCampaigns;
  const named = pixel?.campaign;
  if (named && campaigns.length > 1 && !event.signals?.cartAttribute && campaigns.includes(named)) return [named];
  return campaigns;
}

const COMMISSION_STATE = { true: "approved", false: "pending" } as const;

export async function recordOrder(ctx: OrderJobContext, shop: string, { orderId, event }: Payload): Promise<JobOutcome> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (record && record.status !== "queued" && record.status !== "failed") return done;
  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { type: "pause", reason: connection.reason };

  const choices = await shopChoices(ctx, shop, connection.shop);
  const pixel = await findPixelSignal(ctx.db, shop, event.checkoutToken, orderId);
  const campaigns = chooseCampaigns(event, choices.campaignUids, pixel);
  if (campaigns.length === 0) return { type: "pause", reason: "Choose the campaigns to record orders in (Settings)." };
  const results = parseJsonObject<CampaignResults>(record?.results);
  const todo = campaigns.filter((uid) => !SETTLED.has(results[uid]?.state as CampaignResult["state"]));
  let outcome: JobOutcome = done;
  let decision: Decision = { explanation: { signals: [], winner: null, guard: [], decision: "" }, flags: [] };
  try {
    decision = await decideAndSend(ctx, shop, orderId, connection.client, event, todo, results, choices, record?.placedAt ?? ctx.now(), pixel);
  } catch (error) {
    outcome = outcomeOfServiceError(error);
  }

  const { explanation, flags } = decision;
  const summary = summarise(results, campaigns, explanation);
  explanation.decision = decisionText(summary, explanation, flags);
  const settled = outcome.type === "done";
  if (settled && summary.status === "failed") outcome = { type: "fail", reason: summary.reason };
  const winner = explanation.winner;
  const approval = flags.length > 0 ? false : event.params.isApproved;
  await updateOrderRecord(ctx.db, shop, orderId, {
    results: JSON.stringify(results),
    campaignUids: campaigns.join(","),
    ...(settled && summary.status !== "failed"
      ? {
          status: summary.status,
          statusReason: summary.reason,
          lastError: null,
          explanation: JSON.stringify(explanation),
          flags: flags.length > 0 ? flags.join(",") : null,
          ...(winner ? (winner.sentAs === "short_code" ? { shortCode: winner.code } : { couponCode: winner.code, shortCode: null }) : {}),
          ...(winner?.source === "discount_code" || winner?.source === "offer_code" || winner?.source === "pixel" ? { codeSource: winner.source } : {}),
          recordedAt: summary.status === "recorded" ? ctx.now() : null,
          ...(summary.status === "recorded" && approval !== undefined
            ? { commissionState: commissionStateAfter(record?.commissionState ?? null, COMMISSION_STATE[String(approval) as "true" | "false"]) }
            : {}),
        }
      : {}),
  });
  return outcome;
}

export async function noteRecordingFailed(ctx: OrderJobContext, shop: string, { orderId }: Payload, reason: string, attempts: number) {
  await updateOrderRecord(ctx.db, shop, orderId, { status: "failed", lastError: reason, attempts });
}

export async function noteRecordingAttempt(ctx: OrderJobContext, shop: string, { orderId }: Payload, attempts: number, reason: string) {
  await updateOrderRecord(ctx.db, shop, orderId, { attempts, lastError: reason });
}
