import type { z } from "zod";
import { isDuplicateTransaction, isReferralApiError, type ReferralClient } from "../../referral-api";
import { findOrderRecord, parseJsonObject, updateOrderRecord, type CampaignResult, type CampaignResults } from "../../referrals/order-records.server";
import { ORDER_JOB_PAYLOADS } from "../../referrals/order-jobs";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "../../referrals/pipeline-settings";
import type { JobContext } from "../context";
import { done, outcomeOfServiceError, type JobOutcome } from "../outcome";

const payload = ORDER_JOB_PAYLOADS["order.record"];

type Payload = z.infer<typeof payload>;
type Params = Payload["event"]["params"];

/** The service's answer to an initial event without a code: this customer was never referred. */
function saysNotReferred(errors: string[]): boolean {
  return errors.some((e) => /required/i.test(e) && /(short_code|coupon_code)/i.test(e));
}

function failureResult(params: Params, errors: string[], message: string): CampaignResult {
  if (!params.shortCode && !params.couponCode && saysNotReferred(errors)) {
    return { state: "not_referred", detail: errors.join(" ") };
  }
  return { state: "failed", detail: errors.length > 0 ? errors.join(" ") : message };
}

async function recordOneByOne(client: ReferralClient, campaigns: string[], params: Params, results: CampaignResults) {
  for (const campaignUid of campaigns) {
    try {
      const answer = await client.recordEvent({ ...params, campaignUid });
      results[campaignUid] = { state: "recorded", referrer: answer.referringAmbassador?.email ?? null };
    } catch (error) {
      if (isDuplicateTransaction(error)) results[campaignUid] = { state: "recorded", duplicate: true };
      else if (isReferralApiError(error) && error.kind === "invalid_request") {
        results[campaignUid] = failureResult(params, error.errors, error.message);
      } else throw error;
    }
  }
}

async function recordTogether(client: ReferralClient, campaigns: string[], params: Params, results: CampaignResults) {
  const { couponCode: _coupon, ...multiParams } = params;
  const answer = await client.recordMultiEvent({ ...multiParams, campaignUid: campaigns });
  for (const item of answer.items) {
    if (item.ok) results[item.campaignUid] = { state: "recorded", referrer: item.data.referringAmbassador?.email ?? null };
    else if (item.duplicate) results[item.campaignUid] = { state: "recorded", duplicate: true };
    else results[item.campaignUid] = failureResult(params, item.errors, item.message ?? "rejected");
  }
}

function summarise(results: CampaignResults, campaigns: string[]) {
  const states = campaigns.map((uid) => results[uid]?.state);
  const failures = campaigns
    .filter((uid) => results[uid]?.state === "failed")
    .map((uid) => `Campaign ${uid}: ${results[uid]!.detail}`);
  if (failures.length > 0) return { status: "failed", reason: failures.join(" ") } as const;
  if (states.every((s) => s === "not_referred")) {
    return { status: "skipped", reason: "Not a referred customer: no code on the order and no earlier referral" } as const;
  }
  return { status: "recorded", reason: null } as const;
}

async function chosenCampaigns(ctx: JobContext, shop: string): Promise<string[]> {
  const row = await ctx.db.shop.findUnique({ where: { shop }, select: { campaignUids: true } });
  return row ? readPipelineSettings({ ...PIPELINE_DEFAULTS, campaignUids: row.campaignUids }).campaignUids : [];
}

const COMMISSION_STATE = { true: "approved", false: "pending" } as const;

async function handle(ctx: JobContext, shop: string, { orderId, event }: Payload): Promise<JobOutcome> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (record && record.status !== "queued" && record.status !== "failed") return done;
  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { type: "pause", reason: connection.reason };

  const campaigns = event.campaignUids.length > 0 ? event.campaignUids : await chosenCampaigns(ctx, shop);
  if (campaigns.length === 0) return { type: "pause", reason: "Choose the campaigns to record orders in (Settings)." };
  const results = parseJsonObject<CampaignResults>(record?.results);
  const todo = campaigns.filter((uid) => results[uid]?.state !== "recorded" && results[uid]?.state !== "not_referred");
  let outcome: JobOutcome = done;
  try {
    if (todo.length > 1 && event.params.shortCode) await recordTogether(connection.client, todo, event.params, results);
    else await recordOneByOne(connection.client, todo, event.params, results);
  } catch (error) {
    outcome = outcomeOfServiceError(error);
  }

  const summary = summarise(results, campaigns);
  const settled = outcome.type === "done";
  if (settled && summary.status === "failed") outcome = { type: "fail", reason: summary.reason };
  await updateOrderRecord(ctx.db, shop, orderId, {
    results: JSON.stringify(results),
    campaignUids: campaigns.join(","),
    ...(settled && summary.status !== "failed"
      ? {
          status: summary.status,
          statusReason: summary.reason,
          lastError: null,
          recordedAt: summary.status === "recorded" ? ctx.now() : null,
          commissionState:
            summary.status === "recorded" && event.params.isApproved !== undefined
              ? COMMISSION_STATE[String(event.params.isApproved) as "true" | "false"]
              : null,
        }
      : {}),
  });
  return outcome;
}

export const recordOrderJob = {
  kind: "order.record",
  payload,
  handle,
  async onFailed(ctx: JobContext, shop: string, { orderId }: Payload, reason: string, attempts: number) {
    await updateOrderRecord(ctx.db, shop, orderId, { status: "failed", lastError: reason, attempts });
  },
  async onAttempt(ctx: JobContext, shop: string, { orderId }: Payload, attempts: number, reason: string) {
    await updateOrderRecord(ctx.db, shop, orderId, { attempts, lastError: reason });
  },
} as const;
