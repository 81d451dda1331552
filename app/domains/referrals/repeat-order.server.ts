import type { ReferralClient } from "../../platform/referral-api";
import type { SignalNote } from "./explanation";
import type { StoredEvent } from "./job-kinds";
import type { OrderJobContext } from "./order-job-context";
import { firstReferrals, renewalsSent } from "./referred-customers.server";
import { policyOf, readRepeatPolicies, repeatVerdict, type RepeatVerdict } from "./repeat-purchase";
import { sellingPlanSignal } from "./selling-plan.server";
import type { OrderSignals } from "./referral-decision";

// The order job's part for later orders of referred customers: which of the
// order's campaigns the customer was referred in already, and what each
// campaign's policy makes of the order (repeat-purchase.ts).

/** The first code the order carries, as it would be tried (a link before a discount code). */
function firstCode(signals: OrderSignals): string | null {
  return signals.cartAttribute ?? signals.pixel?.code ?? signals.landingPage ?? signals.discountCodes[0] ?? null;
}

/** Every code on the order, noted as not used: the customer stays with their first referrer. */
export function repeatSignalNotes(signals: OrderSignals): SignalNote[] {
  const outcome = "Not used: the customer was referred already, and stays with their first referrer";
  const links: SignalNote[] = [
    ...(signals.cartAttribute ? [{ source: "cart_attribute" as const, code: signals.cartAttribute, outcome }] : []),
    ...(signals.pixel ? [{ source: "pixel" as const, code: signals.pixel.code, outcome }] : []),
    ...(signals.landingPage ? [{ source: "landing_page" as const, code: signals.landingPage, outcome }] : []),
  ];
  return [...links, ...signals.discountCodes.map((code) => ({ source: "discount_code" as const, code, outcome }))];
}

/**
 * The verdict of each of `campaigns` the customer was referred in by another
 * order: sent on the recurring reward, or not, and why. Reads nothing more
 * for a customer the app never recorded as referred.
 */
export async function repeatVerdicts(
  ctx: OrderJobContext,
  client: ReferralClient,
  shop: string,
  orderId: string,
  event: StoredEvent,
  signals: OrderSignals,
  campaigns: readonly string[],
): Promise<Map<string, RepeatVerdict>> {
  const buyer = { customerId: event.params.uid, email: event.params.email };
  const referrals = await firstReferrals(ctx.db, shop, buyer, campaigns, orderId);
  const verdicts = new Map<string, RepeatVerdict>();
  if (referrals.size === 0) return verdicts;
  const shopRow = await ctx.db.shop.findUnique({ where: { shop }, select: { repeatPolicies: true } });
  const policies = readRepeatPolicies(shopRow?.repeatPolicies);
  const needsCount = [...referrals.keys()].some((uid) => policyOf(policies, uid).policy === "first_n");
  const sent = needsCount ? await renewalsSent(ctx.db, shop, buyer, orderId) : new Map<string, number>();
  // Nothing on the webhook said renewal, but its source or tags suggest a subscription: its line items' selling plan may.
  const renewal = event.renewal ?? (event.maySubscribe ? await sellingPlanSignal(ctx.adminForShop, shop, orderId) : null);
  for (const [campaignUid, referral] of referrals) {
    verdicts.set(
      campaignUid,
      repeatVerdict({
        referral,
        policy: policyOf(policies, campaignUid),
        recurringNone: !(await ctx.codes.campaignPaysRecurring(client, shop, campaignUid)),
        renewal,
        renewalsSent: sent.get(campaignUid) ?? 0,
        code: firstCode(signals),
      }),
    );
  }
  return verdicts;
}
