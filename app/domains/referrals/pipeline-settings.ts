import { z } from "zod";
import { commaList } from "../../platform/text/comma-list";

// What a shop chose for its order pipeline, read once from its Shop row.

export const TRIGGERS = ["orders_paid", "orders_create"] as const;
export const SCOPES = ["with_code", "all_orders"] as const;
export const APPROVALS = ["campaign", "pending", "approved"] as const;
export const REVENUE_BASES = ["subtotal_after_discounts", "subtotal_before_discounts", "total"] as const;
export const TEST_ORDER_RULES = ["skip", "send"] as const;

const list = z.string().transform(commaList);

export const pipelineSettingsSchema = z.object({
  campaignUids: list,
  trigger: z.enum(TRIGGERS).catch("orders_paid"),
  scope: z.enum(SCOPES).catch("with_code"),
  approval: z.enum(APPROVALS).catch("campaign"),
  revenueBasis: z.enum(REVENUE_BASES).catch("subtotal_after_discounts"),
  codeParams: list.transform((names) => (names.length > 0 ? names : ["mbsy"])),
  testOrders: z.enum(TEST_ORDER_RULES).catch("skip"),
  /** The merchant's own renewal signal (repeat-purchase.ts, readRenewalRule). */
  renewalRule: z.string().catch(""),
});

export type PipelineSettings = z.infer<typeof pipelineSettingsSchema>;

/** The defaults of a shop that has not saved settings (they match the Shop table's defaults). */
export const PIPELINE_DEFAULTS = {
  campaignUids: "",
  trigger: "orders_paid",
  scope: "with_code",
  approval: "campaign",
  revenueBasis: "subtotal_after_discounts",
  codeParams: "mbsy",
  testOrders: "skip",
  renewalRule: "",
} as const;

/** Reads the stored text columns; an unknown stored value falls back to its default. */
export function readPipelineSettings(row: Record<keyof PipelineSettings, string>): PipelineSettings {
  return pipelineSettingsSchema.parse(row);
}
