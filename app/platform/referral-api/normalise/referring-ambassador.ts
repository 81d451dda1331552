import { readFields } from "../field-reader";
import { isRecord } from "../scalars";
import type { ReferringAmbassador } from "../types";

/** The referrer of an event; null when the service sends none (null, [], {} or nothing). */
export function normaliseReferringAmbassador(raw: unknown): ReferringAmbassador | null {
  if (!isRecord(raw) || Object.keys(raw).length === 0) return null;
  const r = readFields(raw, "referring ambassador");
  return {
    email: r.text("email"),
    firstName: r.text("first_name"),
    lastName: r.text("last_name"),
    uid: r.text("uid"),
    commission: r.money("commission"),
    balanceMoney: r.money("balance_money"),
    balancePoints: r.money("balance_points"),
    memorableUrl: r.text("memorable_url"),
    uniqueReferrals: r.number("unique_referrals"),
    sandbox: r.flag("sandbox"),
    custom1: r.text("custom1"),
    custom2: r.text("custom2"),
    custom3: r.text("custom3"),
    extra: r.extra(),
  };
}
