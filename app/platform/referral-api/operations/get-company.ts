import { readFields } from "../field-reader";
import { normaliseCampaign } from "../normalise/campaign";
import { normaliseCompany } from "../normalise/company";
import type { Campaign, Company, Extra } from "../types";
import type { OperationDeps } from "./deps";

export interface CompanyDetails {
  company: Company;
  /** The active campaigns. */
  campaigns: Campaign[];
  extra: Extra;
}

function normaliseCompanyDetails(data: unknown): CompanyDetails {
  const r = readFields(data, "response data");
  return {
    company: normaliseCompany(r.object("company") ?? {}),
    campaigns: r.array("campaigns").map(normaliseCampaign),
    extra: r.extra(),
  };
}

/** GET company/get: the company and its active campaigns. */
export function getCompanyOperation({ transport }: OperationDeps) {
  return function getCompany(): Promise<CompanyDetails> {
    return transport.request({ operation: "company/get", method: "GET", normalise: normaliseCompanyDetails });
  };
}
