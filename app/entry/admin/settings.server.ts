import { z } from "zod";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import { resumeShopJobs } from "../../platform/queue/shop-jobs.server";
import { DISCONNECTED_REASON } from "./connection.server";
import {
  APPROVALS,
  PIPELINE_DEFAULTS,
  readPipelineSettings,
  REVENUE_BASES,
  SCOPES,
  TEST_ORDER_RULES,
  TRIGGERS,
} from "../../domains/referrals/pipeline-settings";
import { GUARD_MODES, GUARD_RULES, readGuardSettings, writeGuardRules, type GuardMode, type GuardRule } from "../../domains/referrals/guard-settings";
import { MAX_LEAK_THRESHOLD, MAX_LEAK_WINDOW_DAYS, MAX_REVIEW_WINDOW_DAYS, readLeakSettings } from "../../domains/referrals";
import { readRenewalRule, renewalRuleText } from "../../domains/referrals/repeat-purchase";
import type { AdminContext } from "./admin-context";
import { fieldErrorsOf } from "./form-data";
import { guardField } from "./settings-options";

/** The settings as the form shows them. */
export interface SettingsView {
  campaignUids: string[];
  trigger: (typeof TRIGGERS)[number];
  scope: (typeof SCOPES)[number];
  approval: (typeof APPROVALS)[number];
  revenueBasis: (typeof REVENUE_BASES)[number];
  codeParams: string;
  testOrders: (typeof TEST_ORDER_RULES)[number];
  autoEnrol: boolean;
  newAmbassadorGroup: string;
  /** What the referral guard does with each rule. */
  guard: Record<GuardRule, GuardMode>;
  /** As the form's text field holds it. */
  guardDailyLimit: string;
  /** "Send events to Shopify Flow" (app/domains/flow-triggers). */
  flowTriggers: boolean;
  /** Days after its order at which a pending commission approves itself, as the form's text field holds it; "" is off. */
  reviewWindowDays: string;
  /** The merchant's own renewal signal: none, a tag, or a note attribute, and its name. */
  renewalRuleKind: RenewalRuleKind;
  renewalRuleName: string;
  /** Leaked codes (decision 036): buyers without a link, as the form's text field holds it ("" is off), the window in days, and the hold. */
  leakThreshold: string;
  leakWindowDays: string;
  leakHold: boolean;
}

export const RENEWAL_RULE_KINDS = ["none", "tag", "attribute"] as const;
export type RenewalRuleKind = (typeof RENEWAL_RULE_KINDS)[number];

export async function readSettings(ctx: Pick<AdminContext, "db">, shop: string): Promise<SettingsView> {
  const row = await ctx.db.shop.findUnique({ where: { shop } });
  const pipeline = readPipelineSettings(row ?? PIPELINE_DEFAULTS);
  return {
    ...pipeline,
    codeParams: pipeline.codeParams.join(", "),
    autoEnrol: row?.autoEnrol ?? false,
    newAmbassadorGroup: row?.newAmbassadorGroup ?? "",
    ...guardView(row ?? {}),
    flowTriggers: row?.flowTriggers ?? false,
    reviewWindowDays: row?.reviewWindowDays ? String(row.reviewWindowDays) : "",
    ...renewalRuleView(pipeline.renewalRule),
    ...leakView(row ?? {}),
  };
}

/** A form's whole number: `empty` for an empty field, NaN for anything but digits. */
function wholeNumber(value: unknown, empty: number): number {
  const text = typeof value === "string" ? value.trim() : "";
  return text === "" ? empty : /^\d+$/.test(text) ? Number(text) : NaN;
}

function leakView(row: Parameters<typeof readLeakSettings>[0]): Pick<SettingsView, "leakThreshold" | "leakWindowDays" | "leakHold"> {
  const leak = readLeakSettings(row);
  return { leakThreshold: leak.threshold > 0 ? String(leak.threshold) : "", leakWindowDays: String(leak.windowDays), leakHold: leak.hold };
}

type LeakField = "leakThreshold" | "leakWindowDays" | "leakHold";

/**
 * The leaked codes' part of the form: the threshold (empty is off), the
 * window and the hold. A field the form did not send keeps what is stored.
 */
function readLeakForm(input: Record<string, unknown>): {
  data: { leakThreshold?: number; leakWindowDays?: number; leakHold?: boolean };
  errors: Partial<Record<LeakField, string>>;
} {
  const errors: Partial<Record<LeakField, string>> = {};
  const data: { leakThreshold?: number; leakWindowDays?: number; leakHold?: boolean } = {};
  if (input.leakThreshold !== undefined) {
    const number = wholeNumber(input.leakThreshold, 0);
    if (number >= 0 && number <= MAX_LEAK_THRESHOLD) data.leakThreshold = number;
    else errors.leakThreshold = `Enter a whole number of buyers from 1 to ${MAX_LEAK_THRESHOLD}, or leave it empty to flag no code.`;
  }
  if (input.leakWindowDays !== undefined) {
    const number = wholeNumber(input.leakWindowDays, NaN);
    if (number >= 1 && number <= MAX_LEAK_WINDOW_DAYS) data.leakWindowDays = number;
    else errors.leakWindowDays = `Enter a whole number of days from 1 to ${MAX_LEAK_WINDOW_DAYS}.`;
  }
  if (input.leakHold !== undefined) {
    if (input.leakHold === "true" || input.leakHold === "false") data.leakHold = input.leakHold === "true";
    else errors.leakHold = "Choose whether leaked codes' commissions are held.";
  }
  return { data, errors };
}

function renewalRuleView(text: string): Pick<SettingsView, "renewalRuleKind" | "renewalRuleName"> {
  const rule = readRenewalRule(text);
  return rule ? { renewalRuleKind: rule.kind, renewalRuleName: rule.name } : { renewalRuleKind: "none", renewalRuleName: "" };
}

type ReviewAndRenewalField = "reviewWindowDays" | "renewalRuleKind" | "renewalRuleName";

/** Shopify's limit on a tag's length. */
const TAG_MAX = 40;
const ATTRIBUTE_MAX = 100;

/**
 * The review window and the renewal rule. A field the form did not send
 * keeps what is stored; an empty review window is off.
 */
function readReviewAndRenewalForm(input: Record<string, unknown>): {
  data: { reviewWindowDays?: number; renewalRule?: string };
  errors: Partial<Record<ReviewAndRenewalField, string>>;
} {
  const errors: Partial<Record<ReviewAndRenewalField, string>> = {};
  const data: { reviewWindowDays?: number; renewalRule?: string } = {};
  if (input.reviewWindowDays !== undefined) {
    const number = wholeNumber(input.reviewWindowDays, 0);
    if (number >= 0 && number <= MAX_REVIEW_WINDOW_DAYS) data.reviewWindowDays = number;
    else errors.reviewWindowDays = `Enter a whole number of days from 1 to ${MAX_REVIEW_WINDOW_DAYS}, or leave it empty to approve nothing on its own.`;
  }
  const kind = input.renewalRuleKind;
  if (kind !== undefined) {
    const name = typeof input.renewalRuleName === "string" ? input.renewalRuleName.trim() : "";
    if (!(RENEWAL_RULE_KINDS as readonly unknown[]).includes(kind)) errors.renewalRuleKind = "Choose none, a tag or a note attribute.";
    else if (kind === "none") data.renewalRule = "";
    else if (name === "") errors.renewalRuleName = kind === "tag" ? "Enter the tag your subscription app puts on renewal orders." : "Enter the name of the note attribute your subscription app puts on renewal orders.";
    else if (kind === "tag" && (name.length > TAG_MAX || name.includes(","))) errors.renewalRuleName = `Enter one tag of at most ${TAG_MAX} characters, without commas.`;
    else if (kind === "attribute" && name.length > ATTRIBUTE_MAX) errors.renewalRuleName = `Enter a note attribute name of at most ${ATTRIBUTE_MAX} characters.`;
    else data.renewalRule = renewalRuleText({ kind: kind as "tag" | "attribute", name });
  }
  return { data, errors };
}

function guardView(row: Parameters<typeof readGuardSettings>[0]): Pick<SettingsView, "guard" | "guardDailyLimit"> {
  const guard = readGuardSettings(row);
  return { guard: guard.modes, guardDailyLimit: String(guard.dailyLimit) };
}

type GuardField = ReturnType<typeof guardField> | "guardDailyLimit";

const MAX_DAILY_LIMIT = 1_000;

/**
 * The referral guard's part of the form: each rule's mode and the velocity
 * rules' daily limit. A field the form did not send keeps what is stored.
 */
function readGuardForm(input: Record<string, unknown>): { data: { guardRules?: string; guardDailyLimit?: number }; errors: Partial<Record<GuardField, string>> } {
  const errors: Partial<Record<GuardField, string>> = {};
  const modes: Partial<Record<GuardRule, GuardMode>> = {};
  for (const rule of GUARD_RULES) {
    const value = input[guardField(rule)];
    if (value === undefined) continue;
    if ((GUARD_MODES as readonly unknown[]).includes(value)) modes[rule] = value as GuardMode;
    else errors[guardField(rule)] = "Choose Off, Flag for review or Block.";
  }
  const data: { guardRules?: string; guardDailyLimit?: number } = {};
  if (Object.keys(modes).length > 0) data.guardRules = writeGuardRules(modes);
  const limit = input.guardDailyLimit;
  if (limit !== undefined) {
    const number = typeof limit === "string" && /^\s*\d+\s*$/.test(limit) ? Number(limit) : NaN;
    if (number >= 1 && number <= MAX_DAILY_LIMIT) data.guardDailyLimit = number;
    else errors.guardDailyLimit = `Enter a whole number of orders from 1 to ${MAX_DAILY_LIMIT}.`;
  }
  return { data, errors };
}

const choose = (what: string) => ({ message: `Choose ${what}.` });
const PARAM_NAME = /^[A-Za-z0-9_.-]{1,40}$/;

export const SETTINGS_LIST_FIELDS = ["campaignUids"] as const;

/** The settings form; the allowed values come from pipeline-settings.ts. */
export const settingsFormSchema = z.object({
  campaignUids: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[\w-]{1,40}$/, "A campaign id is not valid.")
    )
    .max(50, "Choose at most 50 campaigns.")
    .transform((uids) => [...new Set(uids)]),
  trigger: z.enum(TRIGGERS, choose("when orders are recorded")),
  scope: z.enum(SCOPES, choose("which orders are sent")),
  approval: z.enum(APPROVALS, choose("how commissions start")),
  revenueBasis: z.enum(REVENUE_BASES, choose("the revenue to send")),
  codeParams: z
    .string()
    .transform((text) =>
      text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    )
    .pipe(
      z
        .array(z.string().regex(PARAM_NAME, "Use letters, digits, - _ or . in parameter names, separated by commas."))
        .min(1, "Enter at least one parameter name, e.g. mbsy.")
        .max(5, "Enter at most 5 parameter names.")
    ),
  testOrders: z.enum(TEST_ORDER_RULES, choose("what happens to test orders")),
  autoEnrol: z.enum(["true", "false"], choose("whether customers are enrolled")).transform((v) => v === "true"),
  newAmbassadorGroup: z
    .string()
    .trim()
    .regex(/^[\w-]{0,40}$/, "Choose a group from the list.")
    .default("")
    .transform((v) => v || null),
  // Absent from a form that does not show it: what is stored stays.
  flowTriggers: z
    .enum(["true", "false"], choose("whether events are sent to Shopify Flow"))
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true")),
});

export type SettingsField = keyof z.input<typeof settingsFormSchema> | GuardField | ReviewAndRenewalField | LeakField;

export type SaveSettingsResult =
  | { ok: true; resumedJobs: number; trackedCampaigns: number }
  | { ok: false; fieldErrors: Partial<Record<SettingsField | "form", string>> };

export interface KnownChoices {
  /** The program's active campaigns, when the service could be asked. */
  campaignUids?: readonly string[];
  /** The program's groups, when the service could be asked. */
  groupIds?: readonly string[];
}

/**
 * Validates and stores the pipeline and storefront settings; the shop's held
 * jobs (e.g. waiting for a campaign to be chosen) run again at once.
 */
export async function saveSettings(
  ctx: Pick<AdminContext, "db">,
  shop: string,
  input: unknown,
  known: KnownChoices = {}
): Promise<SaveSettingsResult> {
  const parsed = settingsFormSchema.safeParse(input);
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const guard = readGuardForm(fields);
  const review = readReviewAndRenewalForm(fields);
  const leak = readLeakForm(fields);
  if (!parsed.success || [guard.errors, review.errors, leak.errors].some((errors) => Object.keys(errors).length > 0)) {
    return { ok: false, fieldErrors: { ...(parsed.success ? {} : fieldErrorsOf(parsed.error.issues)), ...guard.errors, ...review.errors, ...leak.errors } };
  }
  const settings = parsed.data;
  const unknownCampaigns = known.campaignUids ? settings.campaignUids.filter((uid) => !known.campaignUids!.includes(uid)) : [];
  if (unknownCampaigns.length > 0) {
    return {
      ok: false,
      fieldErrors: {
        campaignUids: `Campaign ${unknownCampaigns.join(", ")} is not an active campaign of your program any more.`,
      },
    };
  }
  if (settings.newAmbassadorGroup && known.groupIds && !known.groupIds.includes(settings.newAmbassadorGroup)) {
    return { ok: false, fieldErrors: { newAmbassadorGroup: "This group no longer exists in your program. Choose another one." } };
  }

  const data = {
    campaignUids: settings.campaignUids.join(","),
    trigger: settings.trigger,
    scope: settings.scope,
    approval: settings.approval,
    revenueBasis: settings.revenueBasis,
    codeParams: settings.codeParams.join(","),
    testOrders: settings.testOrders,
    autoEnrol: settings.autoEnrol,
    newAmbassadorGroup: settings.newAmbassadorGroup,
    ...guard.data,
    ...review.data,
    ...leak.data,
    ...(settings.flowTriggers === undefined ? {} : { flowTriggers: settings.flowTriggers }),
  };
  await ctx.db.shop.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  const resumedJobs = await resumeShopJobs(ctx.db, shop, new Date(), { except: [DISCONNECTED_REASON] });
  if (resumedJobs > 0) notifyJobEnqueued();
  return { ok: true, resumedJobs, trackedCampaigns: settings.campaignUids.length };
}

/** Starts or stops recording orders in one campaign (from the Campaigns page). */
export async function setCampaignTracked(
  ctx: Pick<AdminContext, "db">,
  shop: string,
  campaignUid: string,
  tracked: boolean
): Promise<{ campaignUids: string[]; resumedJobs: number }> {
  const current = (await readSettings(ctx, shop)).campaignUids;
  const campaignUids = tracked ? [...new Set([...current, campaignUid])] : current.filter((uid) => uid !== campaignUid);
  const data = { campaignUids: campaignUids.join(",") };
  await ctx.db.shop.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  const resumedJobs = await resumeShopJobs(ctx.db, shop, new Date(), { except: [DISCONNECTED_REASON] });
  if (resumedJobs > 0) notifyJobEnqueued();
  return { campaignUids, resumedJobs };
}
