import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { startBulkRun } from "../../domains/commissions";
import { commissionListFilter, parseCommissionQuery } from "./commissions.server";
import type { MerchantError } from "./merchant-error";

const startForm = z.object({
  decision: z.enum(["approve", "deny"], { message: "Choose approve or deny." }),
  filters: z.string().max(2_000).default(""),
});

/**
 * The page's "Approve all" / "Deny all": a run for the filters the page
 * showed (sent as its query string), decided by a job
 * (domains/commissions/commission-bulk.server.ts).
 */
export async function startCommissionBulk(
  db: PrismaClient,
  shop: string,
  form: FormData,
  now = new Date()
): Promise<{ ok: true; runId: string } | { ok: false; error: MerchantError }> {
  const refused = (message: string) => ({
    ok: false as const,
    error: { title: "Nothing was changed", message, retryable: false },
  });
  const parsed = startForm.safeParse({ decision: form.get("decision"), filters: form.get("filters") ?? undefined });
  if (!parsed.success) return refused(parsed.error.issues.map((i) => i.message).join(" "));
  const query = parseCommissionQuery(new URLSearchParams(parsed.data.filters));
  if (Object.keys(query.errors).length > 0) return refused("The filters aren't valid; correct them and select again.");
  if (query.filters.order) return refused("The commissions of one order are all on one page; select them there.");
  if (query.filters.status && query.filters.status !== "pending") {
    return refused("Only pending commissions can be approved or denied, and this list has none.");
  }
  const started = await startBulkRun(db, shop, parsed.data.decision, { ...commissionListFilter(query.filters), status: "pending" }, now);
  return started.ok ? started : refused("Another approve or deny of all commissions is running; wait for it to finish.");
}
