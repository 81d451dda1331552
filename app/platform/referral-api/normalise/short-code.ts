import { readFields } from "../field-reader";
import type { ShortCode } from "../types";

export function normaliseShortCode(raw: unknown): ShortCode {
  const r = readFields(raw, "short code");
  return {
    valid: r.flag("valid"),
    sandbox: r.flag("sandbox"),
    discountValue: r.text("discount_value"),
    firstName: r.text("first_name"),
    lastName: r.text("last_name"),
    email: r.text("email"),
    uid: r.text("uid"),
    campaignUid: r.text("campaign_uid"),
    campaignName: r.text("campaign_name"),
    campaignDescription: r.text("campaign_description"),
    custom1: r.text("custom1"),
    custom2: r.text("custom2"),
    custom3: r.text("custom3"),
    status: r.text("status"),
    extra: r.extra(),
  };
}
