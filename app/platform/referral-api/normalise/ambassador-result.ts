import { readFields } from "../field-reader";
import type { Ambassador, Company, Extra, ReferringAmbassador } from "../types";
import { normaliseAmbassador } from "./ambassador";
import { normaliseOptionalCompany } from "./company";
import { normaliseReferringAmbassador } from "./referring-ambassador";

/** What event/record, event/multi_record (per campaign), ambassador/get and ambassador/stats answer. */
export interface AmbassadorResult {
  /** The referrer, when the service names one. */
  referringAmbassador: ReferringAmbassador | null;
  ambassador: Ambassador;
  company: Company | null;
  extra: Extra;
}

export function normaliseAmbassadorResult(data: unknown): AmbassadorResult {
  const r = readFields(data, "response data");
  return {
    referringAmbassador: normaliseReferringAmbassador(r.raw("referring_ambassador")),
    ambassador: normaliseAmbassador(r.raw("ambassador")),
    company: normaliseOptionalCompany(r.raw("company")),
    extra: r.extra(),
  };
}
