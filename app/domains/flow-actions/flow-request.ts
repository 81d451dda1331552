import { z } from "zod";

// What Shopify Flow posts to the app's action endpoint when a workflow runs
// one of its actions (extensions/flow-action-*): the shop, the run's id, the
// action's handle and the fields the merchant filled in. A customer or order
// reference arrives as its numeric id (customer_id, order_id), as a string
// in Shopify's documented sample; a number is taken too.

export const ENROL_HANDLE = "enrol-ambassador";
export const DECIDE_HANDLE = "decide-commission";

const numericId = z.union([z.number().int().positive(), z.string().regex(/^[1-9][0-9]{0,19}$/)]).transform(String);
const optionalText = z
  .string()
  .max(500)
  .nullish()
  .transform((text) => text?.trim() || null);

export const enrolProperties = z.object({ customer_id: numericId, group: optionalText });
export const decideProperties = z.object({
  order_id: numericId,
  decision: z.string().transform((text) => text.trim().toLowerCase()).pipe(z.enum(["approve", "deny"])),
  reason: optionalText,
});

export const flowActionRequestSchema = z.object({
  shopify_domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i).transform((domain) => domain.toLowerCase()),
  action_run_id: z.string().min(1).max(200),
  // The extension's handle (action_definition_id is the action's name, for people).
  handle: z.string(),
  properties: z.record(z.string(), z.unknown()),
});

export type FlowAction =
  | { handle: typeof ENROL_HANDLE; customerId: string; group: string | null }
  | { handle: typeof DECIDE_HANDLE; orderId: string; decision: "approve" | "deny"; reason: string | null };

export type FlowActionRequest = { shop: string; actionRunId: string; action: FlowAction };

/** Flow's body read and checked; null when it is not one of this app's actions with its fields. */
export function parseFlowActionRequest(body: unknown): FlowActionRequest | null {
  const parsed = flowActionRequestSchema.safeParse(body);
  if (!parsed.success) return null;
  const { shopify_domain: shop, action_run_id: actionRunId, handle, properties } = parsed.data;
  if (handle === ENROL_HANDLE) {
    const fields = enrolProperties.safeParse(properties);
    return fields.success ? { shop, actionRunId, action: { handle, customerId: fields.data.customer_id, group: fields.data.group } } : null;
  }
  if (handle === DECIDE_HANDLE) {
    const fields = decideProperties.safeParse(properties);
    if (!fields.success) return null;
    return { shop, actionRunId, action: { handle, orderId: fields.data.order_id, decision: fields.data.decision, reason: fields.data.reason } };
  }
  return null;
}

/** What Flow asked, in the merchant's words: the Service events page shows it. */
export function describeFlowAction(action: FlowAction): string {
  if (action.handle === ENROL_HANDLE) return `Enrol customer ${action.customerId} as an ambassador${action.group ? ` (group ${action.group})` : ""}`;
  const verb = action.decision === "approve" ? "Approve" : "Deny";
  return `${verb} the referral commission of order ${action.orderId}${action.reason ? ` (reason: ${action.reason})` : ""}`;
}
