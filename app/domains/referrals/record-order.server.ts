import type { Shop } from "@prisma/client";
import type { z } from "zod";
import { outcomeOfServiceError } from "../connection";
import { findOfferCode } from "../offers";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import { insertJobStatement } from "../../platform/queue/enqueue.server";
import { isDuplicateTransaction, isReferralApiError, type ReferralClient } from "../../platform/referral-api";
import { plainSql, timeOf, type Statement } from "../../platform/db/sql.server";
import { flowTriggerStatement } from "../flow-triggers";
import { referralBlocked, referralCredited } from "../flow-triggers";
import { decidedStatements, type CommissionState } from "../commissions";
import { gatherGuardFacts } from "./guard-facts.server";
import { readGuardSettings } from "./guard-settings";
import { PIXEL_SWEEP_JOB, type RECORD_ORDER_JOB, type StoredEvent } from "./job-kinds";
import type { OrderJobContext } from "./order-job-context";
import { orderRecordUpdate, parseJsonObject, updateOrderRecord, type CampaignResult, type CampaignResults } from "./order-records.server";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "./pipeline-settings";
import { signalMayCome, waitEndSweep } from "./pixel-signal";
import type { PixelSignalFound } from "./pixel-signals.server";
import {
  campaignsFor,
  decideReferral,
  decisionText,
  orderOutcome,
  sendParams,
  settledStatus,
  type CodeFacts,
  type Decision,
  type DecisionInput,
  type DecisionStep,
  type OrderSignals,
} from "./referral-decision";
import type { ReferralEventParams } from "./referral-event";
import { releaseHeld, reviseCommissions } from "./reversal.server";
import { classifyRefusal } from "./service-refusals";
import { referredCustomerStatements } from "./referred-customers.server";
import { repeatSignalNotes, repeatVerdicts } from "./repeat-order.server";
import { reviewApprovalStatement } from "./review-window.server";
import { heldByLeak, leakHeldReason, readLeakSettings, typedAtCheckout, type LeakedCode, type LeakSettings } from "./leaked-code";
import { findLeakedCode, leakedCodeStatements, noteBuyerWithoutLink, type Tripped } from "./leaked-codes.server";
import type { RepeatVerdict } from "./repeat-purchase";

// The order.record job: it gathers the facts the referral decision asks for
// (referral-decision.ts), sends what the decision says, and stores the
// outcome on the order's record.

type Payload = z.infer<(typeof RECORD_ORDER_JOB)["payload"]>;

/** A campaign the service has settled for this order; it is not sent again. */
const SETTLED = new Set<CampaignResult["state"]>(["recorded", "not_referred", "blocked"]);

/** The signals of a stored event; an event queued before the app kept every signal carries its one code in its parameters. */
export function storedSignals(event: StoredEvent): OrderSignals {
  if (event.signals) return event.signals;
  const { shortCode, couponCode } = event.params;
  return {
    ...(shortCode && event.codeSource === "landing_site" ? { landingPage: shortCode } : {}),
    ...(shortCode && event.codeSource !== "landing_site" ? { cartAttribute: shortCode } : {}),
    discountCodes: couponCode ? [couponCode] : [],
  };
}

/**
 * The campaigns of the order: those the intake resolved, or the shop's now;
 * a campaign the web pixel's link named goes alone when the cart named none.
 */
function orderCampaigns(event: StoredEvent, shopCampaigns: string[], pixel: PixelSignalFound | null): string[] {
  const tracked = event.campaignUids.length > 0 ? event.campaignUids : shopCampaigns;
  return campaignsFor(tracked, storedSignals(event).cartAttribute ? null : pixel?.campaign);
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

async function recordOneByOne(client: ReferralClient, campaigns: string[], params: ReferralEventParams, results: CampaignResults) {
  for (const campaignUid of campaigns) {
    try {
      const answer = await client.recordEvent({ ...params, campaignUid });
      results[campaignUid] = { state: "recorded", referrer: answer.referringAmbassador?.email ?? null, commission: answer.referringAmbassador?.commission ?? null };
    } catch (error) {
      if (isDuplicateTransaction(error)) results[campaignUid] = { state: "recorded", duplicate: true };
      else if (isReferralApiError(error) && error.kind === "invalid_request") results[campaignUid] = refusalResult(error.errors, error.message);
      else throw error;
    }
  }
}

async function recordTogether(client: ReferralClient, campaigns: string[], params: ReferralEventParams, results: CampaignResults) {
  const { couponCode: _coupon, ...multiParams } = params;
  const answer = await client.recordMultiEvent({ ...multiParams, campaignUid: campaigns });
  for (const item of answer.items) {
    if (item.ok) {
      const referrer = item.data.referringAmbassador;
      results[item.campaignUid] = { state: "recorded", referrer: referrer?.email ?? null, commission: referrer?.commission ?? null };
    }
    else if (item.duplicate) results[item.campaignUid] = { state: "recorded", duplicate: true };
    else results[item.campaignUid] = refusalResult(item.errors, item.message ?? "rejected");
  }
}

/** Sends the order to every campaign still to do; false when the service knew the code in none of them. */
async function send(client: ReferralClient, campaigns: string[], params: ReferralEventParams, results: CampaignResults): Promise<boolean> {
  if (campaigns.length === 0) return true;
  if (campaigns.length > 1 && params.shortCode) await recordTogether(client, campaigns, params, results);
  else await recordOneByOne(client, campaigns, params, results);
  if (campaigns.every((uid) => results[uid]?.codeUnknown)) {
    for (const uid of campaigns) delete results[uid];
    return false;
  }
  return true;
}

type ChoiceColumns = Pick<Shop, "campaignUids" | "scope" | "guardRules" | "guardDailyLimit" | "leakThreshold" | "leakWindowDays" | "leakHold">;

/** The shop's choices, from the row the connection was read with when it came along. */
async function shopChoices(ctx: OrderJobContext, shop: string, read?: ChoiceColumns) {
  const row =
    read ??
    (await ctx.db.shop.findUnique({
      where: { shop },
      select: { campaignUids: true, scope: true, guardRules: true, guardDailyLimit: true, leakThreshold: true, leakWindowDays: true, leakHold: true },
    }));
  const pipeline = readPipelineSettings({ ...PIPELINE_DEFAULTS, ...(row ? { campaignUids: row.campaignUids, scope: row.scope } : {}) });
  return { campaignUids: pipeline.campaignUids, sendWithoutCode: pipeline.scope === "all_orders", guard: readGuardSettings(row ?? {}), leak: readLeakSettings(row ?? {}) };
}

interface Order {
  shop: string;
  orderId: string;
  event: StoredEvent;
  placedAt: Date;
  /** The campaigns not settled yet: what is sent now. */
  todo: string[];
  /** Every campaign's result so far; sending adds to it. */
  results: CampaignResults;
}

/** What became of commissions held until the guard had checked a coupon's referrer: the state they share and the campaigns approved, if they were released. */
type Release = { state: CommissionState | undefined; approved: string[] } | null;

/**
 * The order's code is a leaked one (decision 036): flagged before (`leak`),
 * or by this order (`tripped`); `held`: its commissions wait for the merchant.
 */
type LeakOfOrder = { code: string; leak: LeakedCode | null; tripped: Tripped | null; held: boolean } | null;

/**
 * A code typed alone, about to be sent, is watched for leaks (null: not
 * watched): its flag, if flagged already, and whether the order's
 * commissions go pending for the merchant.
 */
async function leakBeforeSend(ctx: OrderJobContext, order: Order, step: Extract<DecisionStep, { next: "send" }>, settings: LeakSettings) {
  if (!step.withoutLink || !typedAtCheckout(step.source) || settings.threshold <= 0) return null;
  const flagged = await findLeakedCode(ctx.db, order.shop, step.code);
  return { flagged, heldNow: heldByLeak(flagged, order.placedAt, settings.hold) };
}

/**
 * Once the service knew the code: an unflagged code notes the order's buyer
 * and may be flagged by it. The order that flags the code is held when its
 * commissions are still pending (sent held until the guard has checked the
 * coupon's referrer); later ones were sent pending already.
 */
async function leakAfterSend(ctx: OrderJobContext, order: Order, code: string, watch: NonNullable<Awaited<ReturnType<typeof leakBeforeSend>>>, settings: LeakSettings): Promise<LeakOfOrder> {
  const { flagged, heldNow } = watch;
  const buyer = { customerId: order.event.params.uid, email: order.event.params.email };
  const tripped = flagged ? null : await noteBuyerWithoutLink(ctx.db, { shop: order.shop, code, orderId: order.orderId, placedAt: order.placedAt, buyer, settings, secret: ctx.appSecret });
  if (!flagged && !tripped) return null;
  // Every campaign's result, not only those sent now: a retry that finds them all sent has none to do.
  const pendingYet = Object.values(order.results).some((result) => result.state === "recorded" && result.held);
  return { code: code.toUpperCase(), leak: flagged, tripped, held: heldNow || (Boolean(tripped) && settings.hold && pendingYet) };
}

/** What the order's earlier sends left, for a retry that finds every campaign sent: the code was known, and whom the service named. */
function sentBefore(results: CampaignResults): NonNullable<CodeFacts["sent"]> {
  const recorded = Object.values(results).filter((r) => r.state === "recorded");
  return { known: true, referrer: recorded.find((r) => r.referrer)?.referrer, held: recorded.some((r) => r.held) };
}

/**
 * Asks the decision for its next step and carries it out, until it has
 * decided: whose code (shortcode/get, cached), the guard's facts, and each
 * send. The service is asked at most once per code.
 */
async function decideAndSend(
  ctx: OrderJobContext,
  client: ReferralClient,
  order: Order,
  choices: Awaited<ReturnType<typeof shopChoices>>,
  pixel: PixelSignalFound | null,
): Promise<{ decision: Decision; release: Release; leak: LeakOfOrder }> {
  const { shop, orderId, event, todo, results } = order;
  const signals = storedSignals(event);
  const facts = new Map<string, CodeFacts>();
  const factsOf = (code: string) => facts.get(code) ?? facts.set(code, {}).get(code)!;
  const input: DecisionInput = {
    signals,
    offer: await findOfferCode(ctx.db, shop, signals.discountCodes),
    pixelCode: pixel?.code ?? null,
    promotions: new Set(signals.discountCodes.filter((code) => ctx.codes.isKnownPromotion(shop, code)).map((code) => code.toUpperCase())),
    guard: choices.guard,
    sendWithoutCode: choices.sendWithoutCode,
    facts,
  };
  const base: ReferralEventParams = { ...event.params, shortCode: undefined, couponCode: undefined };
  let release: Release = null;
  let leak: LeakOfOrder = null;
  for (;;) {
    const step = decideReferral(input);
    switch (step.next) {
      case "decided":
        return { decision: step.decision, release, leak };
      case "find_owner":
        factsOf(step.code).owner = await ctx.codes.shortCodeOwner(client, shop, step.code);
        break;
      case "gather_guard_facts": {
        const guard = await gatherGuardFacts({
          db: ctx.db,
          client,
          codes: ctx.codes,
          shop,
          orderId,
          placedAt: order.placedAt,
          settings: choices.guard,
          buyer: { email: event.params.email, customerId: event.params.uid, ip: event.params.ipAddress, ...event.buyer },
          code: step.code,
          owner: step.owner ?? undefined,
        });
        const facts = factsOf(step.code);
        if (step.afterSend) facts.sent = { ...facts.sent!, guard };
        else facts.guard = guard;
        break;
      }
      case "deny_sent": {
        // Every commission of the order is denied, an earlier attempt's too; one the service already approved is left for the merchant.
        const interrupted = await reviseCommissions(client, orderId, results, { status: "denied" }, "denied");
        if (interrupted) throw new ServiceInterruption(interrupted);
        for (const [uid, result] of Object.entries(results)) {
          if (result.state === "recorded" && result.reversal === "denied") results[uid] = { ...result, state: "blocked", detail: step.detail, held: undefined };
        }
        factsOf(step.code).sent = { ...factsOf(step.code).sent!, denied: true };
        break;
      }
      case "release_held": {
        // A leaked code's commissions stay pending for the merchant.
        const wanted = leak?.held ? false : event.params.isApproved;
        const released = await releaseHeld(client, orderId, results, (uid) =>
          wanted === undefined ? ctx.codes.campaignAutoApproves(client, shop, uid) : Promise.resolve(wanted),
        );
        if ("interrupted" in released) throw new ServiceInterruption(released.interrupted);
        release = released;
        factsOf(step.code).sent = { ...factsOf(step.code).sent!, released: true };
        break;
      }
      case "send": {
        const watch = await leakBeforeSend(ctx, order, step, choices.leak);
        // A retry that finds every campaign sent sends nothing, and checks again what the earlier send left, the leak watch included.
        if (todo.length === 0) {
          if (watch) leak = await leakAfterSend(ctx, order, step.code, watch, choices.leak);
          factsOf(step.code).sent = sentBefore(results);
          break;
        }
        const params = sendParams(base, step);
        const known = await send(client, todo, watch?.heldNow ? { ...params, isApproved: false } : params, results);
        if (known && step.hold) for (const uid of todo) if (results[uid]?.state === "recorded") results[uid].held = true;
        if (known && watch) leak = await leakAfterSend(ctx, order, step.code, watch, choices.leak);
        // A discount code the service does not know as a coupon is the store's own promotion: not sent again for a while.
        if (!known && step.source === "discount_code") ctx.codes.rememberPromotion(shop, step.code);
        factsOf(step.code).sent = known ? sentBefore(results) : { known };
        break;
      }
      case "send_without_code":
        await send(client, todo, base, results);
        input.sentWithoutCode = true;
        break;
    }
  }
}

/** Sends the order without a code to the campaigns still to do whose verdict says so; a campaign whose verdict does not is settled as not referred. */
async function sendRepeats(client: ReferralClient, todo: readonly string[], verdicts: ReadonlyMap<string, RepeatVerdict>, params: ReferralEventParams, results: CampaignResults) {
  const sending = todo.filter((uid) => verdicts.get(uid)?.send);
  for (const uid of todo) {
    const verdict = verdicts.get(uid);
    if (verdict && !verdict.send) results[uid] = { state: "not_referred", detail: verdict.reason };
  }
  await send(client, sending, params, results);
  for (const uid of sending) {
    const verdict = verdicts.get(uid);
    if (results[uid]?.state === "recorded" && verdict?.send) results[uid].repeat = verdict.kind;
  }
}

/** A renewal when any campaign recorded the order as one, else a repeat purchase when any recorded it as one. */
function repeatKindOf(results: CampaignResults): "repeat" | "renewal" | null {
  const kinds = Object.values(results).filter((r) => r.state === "recorded").map((r) => r.repeat);
  return kinds.includes("renewal") ? "renewal" : kinds.includes("repeat") ? "repeat" : null;
}

/** The campaigns the order credited a referrer in for the first time: recorded, not as a later order. */
function creditedFirst(results: CampaignResults, winner: Decision["explanation"]["winner"]) {
  return Object.entries(results)
    .filter(([, result]) => result.state === "recorded" && !result.repeat && (result.referrer || winner?.referrer))
    .map(([campaignUid, result]) => ({ campaignUid, referrerEmail: result.referrer ?? winner?.referrer }));
}

/** A call to the service that did not get through while the decision was being carried out: the job's outcome says what next. */
class ServiceInterruption extends Error {
  constructor(readonly outcome: JobOutcome) {
    super("The referral service could not be reached");
  }
}

/**
 * The commission decision the recording made, stored through its owner
 * (decidedStatements): the state the order's commissions share, for the
 * campaigns whose commission it is (those the release approved, else every
 * recorded one).
 */
function decidedByRecording(
  shop: string,
  orderId: string,
  event: StoredEvent,
  state: CommissionState,
  results: CampaignResults,
  release: Release,
  flowOn: boolean,
  now: Date,
): Statement[] {
  const approvedNow = release && state === "approved" ? new Set(release.approved) : null;
  const campaigns = Object.entries(results)
    .filter(([uid, result]) => result.state === "recorded" && (!approvedNow || approvedNow.has(uid)))
    .map(([campaignUid, result]) => ({ campaignUid, referrerEmail: result.referrer }));
  // Approved as it was recorded: by the shop's approval setting (the app), or by the campaign's own.
  return decidedStatements({ shop, orderId, state, by: event.params.isApproved ? "app" : "referral service", campaigns }, flowOn, now);
}

/** The commission's state once the order is recorded, as far as the app knows it: undefined when each campaign's setting decided. */
function stateAfterRecording(decision: Decision, results: CampaignResults, release: Release, wanted: boolean | undefined): CommissionState | undefined {
  const held = Object.values(results).some((r) => r.state === "recorded" && r.held);
  if (decision.flags.length > 0 || decision.heldPending || held) return "pending";
  if (release) return release.state;
  return wanted === undefined ? undefined : wanted ? "approved" : "pending";
}

/**
 * The referral credited and blocked Flow triggers a settled order sends, as
 * statements stored with its settle, each keyed by the order (and campaign):
 * a retry or a second delivery queues none again.
 */
function flowTriggersOfOrder(
  shop: string,
  orderId: string,
  event: StoredEvent,
  summary: ReturnType<typeof orderOutcome>,
  explanation: Decision["explanation"],
  results: CampaignResults,
  now: Date,
): Statement[] {
  const code = explanation.winner?.code ?? null;
  const customerId = event.params.uid;
  if (summary.status === "recorded") {
    return Object.entries(results)
      // A duplicate: an earlier attempt recorded it and its answer was lost; the referrer is the one the decision named, if any.
      .filter(([, result]) => result.state === "recorded" && (result.referrer || result.duplicate))
      .map(([campaign, result]) =>
        flowTriggerStatement(
          shop,
          referralCredited({
            orderId,
            customerId,
            referrerEmail: result.referrer ?? explanation.winner?.referrer,
            code,
            campaign,
            revenue: event.params.revenue,
            commission: result.commission,
          }),
          `${orderId}:${campaign}`,
          now,
        ),
      );
  }
  if (summary.status === "blocked") {
    const rule = explanation.guard.find((verdict) => verdict.verdict === "blocked")?.rule ?? "service";
    return [flowTriggerStatement(shop, referralBlocked({ orderId, customerId, rule, reason: summary.reason, code }), orderId, now)];
  }
  return [];
}

/** The order's codes as the decision left them: the winner's, or none (a provisional code the intake wrote goes). */
function winnerCodes(winner: Decision["explanation"]["winner"]): Record<"shortCode" | "couponCode", string | null> {
  if (!winner) return { shortCode: null, couponCode: null };
  return winner.sentAs === "short_code" ? { shortCode: winner.code, couponCode: null } : { shortCode: null, couponCode: winner.code };
}

/** What the job reads of its order: the record and the web pixel's signal for its checkout, in one statement. */
async function readOrder(ctx: OrderJobContext, shop: string, orderId: string, checkoutToken: string | null | undefined) {
  const [row] = await plainSql(ctx.db).rows<{ status: string | null; results: string | null; placedAt: unknown; code: string | null; campaign: string | null; signalOrderId: string | null }>({
    sql: `SELECT r."status", r."results", r."placedAt", p."code", p."campaign", p."orderId" AS "signalOrderId"
      FROM (SELECT 1 AS "one") AS o
      LEFT JOIN "OrderRecord" r ON r."shop" = :shop AND r."orderId" = :orderId
      LEFT JOIN "PixelSignal" p ON p."shop" = :shop AND p."checkoutToken" = :checkoutToken`,
    values: { shop, orderId, checkoutToken: checkoutToken ?? null },
  });
  // A signal joined to another order is that order's.
  const signalled = row?.code != null && (row.signalOrderId === null || row.signalOrderId === orderId);
  return {
    record: row?.status ? { status: row.status, results: row.results, placedAt: timeOf(row.placedAt) } : null,
    pixel: signalled ? ({ code: row.code!, campaign: row.campaign } as PixelSignalFound) : null,
  };
}

export async function recordOrder(ctx: OrderJobContext, shop: string, { orderId, event }: Payload): Promise<JobOutcome> {
  const read = await readOrder(ctx, shop, orderId, event.checkoutToken);
  const record = read.record;
  // The signal the intake joined, else one stored since (an order re-opened by its signal).
  const pixel = event.signals?.pixel ?? read.pixel;
  if (record && record.status !== "queued" && record.status !== "failed") return done;
  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { type: "pause", reason: connection.reason };

  const choices = await shopChoices(ctx, shop, connection.shop);
  const campaigns = orderCampaigns(event, choices.campaignUids, pixel);
  if (campaigns.length === 0) return { type: "pause", reason: "Choose the campaigns to record orders in (Settings)." };
  const results = parseJsonObject<CampaignResults>(record?.results);
  const todo = campaigns.filter((uid) => !SETTLED.has(results[uid]?.state as CampaignResult["state"]));
  let outcome: JobOutcome = done;
  const signals = { ...storedSignals(event), ...(pixel ? { pixel } : {}) };
  let decision: Decision = { explanation: { signals: [], winner: null, guard: [], decision: "" }, flags: [] };
  let release: Release = null;
  let leak: LeakOfOrder = null;
  try {
    // A customer referred in a campaign already is sent there on its recurring reward, as its policy says; the others are decided.
    const repeats = await repeatVerdicts(ctx, connection.client, shop, orderId, event, signals, campaigns);
    const fresh = todo.filter((uid) => !repeats.has(uid));
    if (repeats.size > 0) {
      decision.explanation = { signals: repeatSignalNotes(signals), winner: null, guard: [], repeat: [...new Set([...repeats.values()].map((v) => v.reason))], decision: "" };
      await sendRepeats(connection.client, todo, repeats, { ...event.params, shortCode: undefined, couponCode: undefined }, results);
    }
    // Decided unless every campaign is a repeat one: a retry with nothing left to send checks again what the earlier send left.
    if (campaigns.some((uid) => !repeats.has(uid))) {
      const order = { shop, orderId, event, placedAt: record?.placedAt ?? ctx.now(), todo: fresh, results };
      const repeat = decision.explanation.repeat;
      ({ decision, release, leak } = await decideAndSend(ctx, connection.client, order, choices, pixel));
      if (leak?.held && !decision.heldPending) {
        const flag = leak.leak ?? { code: leak.code, windowDays: choices.leak.windowDays, buyers: leak.tripped!.buyers };
        decision.heldPending = leakHeldReason(flag);
      }
      if (repeat) decision.explanation.repeat = repeat;
      if (decision.unsent) for (const uid of fresh) results[uid] = { ...decision.unsent };
    }
  } catch (error) {
    outcome = error instanceof ServiceInterruption ? error.outcome : outcomeOfServiceError(error);
  }

  const { explanation, flags } = decision;
  const placedAt = record?.placedAt ?? ctx.now();
  const decided = orderOutcome(results, campaigns, explanation);
  explanation.decision = decisionText(decided, explanation, flags, decision.heldPending);
  // A customer referred already needs no web pixel signal: a code cannot move them to another referrer.
  const summary = settledStatus(decided, { pixelWeighed: pixel !== null || Boolean(explanation.repeat?.length), signalMayCome: signalMayCome({ checkoutToken: event.checkoutToken, placedAt }, ctx.now()) });
  const settled = outcome.type === "done";
  if (settled && summary.status === "failed") outcome = { type: "fail", reason: summary.reason };
  const winner = explanation.winner;
  const commissionState = settled && summary.status === "recorded" ? stateAfterRecording(decision, results, release, event.params.isApproved) : undefined;
  const now = ctx.now();
  const flowOn = connection.shop?.flowTriggers === true;
  const reviewDays = connection.shop?.reviewWindowDays ?? 0;
  // Stored with the job's new state, in one transaction.
  const store = [
    orderRecordUpdate(
      shop,
      orderId,
      {
        results: JSON.stringify(results),
        campaignUids: campaigns.join(","),
        ...(settled && summary.status !== "failed"
          ? {
              status: summary.status,
              statusReason: summary.reason ?? null,
              lastError: null,
              explanation: JSON.stringify(explanation),
              flags: flags.length > 0 ? flags.join(",") : null,
              ...winnerCodes(winner),
              ...(winner?.source === "discount_code" || winner?.source === "offer_code" || winner?.source === "pixel" ? { codeSource: winner.source } : {}),
              recordedAt: summary.status === "recorded" ? now : null,
              repeatKind: repeatKindOf(results),
            }
          : {}),
      },
      now,
    ),
    // The customer, credited a first time in a campaign, is recorded as referred there (a customer recorded already keeps their first referrer).
    ...(settled && summary.status === "recorded" ? referredCustomerStatements(shop, orderId, { customerId: event.params.uid, email: event.params.email }, creditedFirst(results, winner), placedAt) : []),
    // Read with the shop's row the connection came with: a shop with Flow off costs no statement.
    ...(settled && flowOn ? flowTriggersOfOrder(shop, orderId, event, summary, explanation, results, now) : []),
    // Apart, and conditional: a service event may have moved the commission already.
    ...(commissionState ? decidedByRecording(shop, orderId, event, commissionState, results, release, flowOn, now) : []),
    // A code this order flagged as leaked: its flag and Flow trigger, once per code.
    ...(settled && summary.status === "recorded" && leak?.tripped
      ? leakedCodeStatements(shop, { code: leak.code, referrerEmail: winner?.referrer, orderId, windowDays: choices.leak.windowDays, ...leak.tripped }, flowOn, now)
      : []),
    // The review window: the commission approves itself when it ends, unless the order changes meanwhile (one job per order).
    ...(reviewDays > 0 && settled && summary.status === "recorded" && flags.length === 0 && commissionState !== "approved"
      ? [reviewApprovalStatement(shop, orderId, placedAt, reviewDays, now)]
      : []),
    // The shop's sweep that ends the wait, should no signal come.
    ...(settled && summary.status === "awaiting_signal" ? [insertJobStatement(PIXEL_SWEEP_JOB, waitEndSweep(shop, placedAt), now)] : []),
  ];
  return { ...outcome, store };
}

export async function noteRecordingFailed(ctx: OrderJobContext, shop: string, { orderId }: Payload, reason: string, attempts: number) {
  await updateOrderRecord(ctx.db, shop, orderId, { status: "failed", lastError: reason, attempts });
}

export async function noteRecordingAttempt(ctx: OrderJobContext, shop: string, { orderId }: Payload, attempts: number, reason: string) {
  await updateOrderRecord(ctx.db, shop, orderId, { attempts, lastError: reason });
}
