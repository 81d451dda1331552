import { readFields } from "../field-reader";
import { normaliseCompanyStats } from "../normalise/company-stats";
import { normaliseOptionalCompany } from "../normalise/company";
import type { Company, CompanyStats, Extra } from "../types";
import type { OperationDeps } from "./deps";

export interface CompanyStatsResult {
  company: Company | null;
  stats: CompanyStats;
  extra: Extra;
}

/** GET company/stats: production and sandbox figures of the company. */
export function getCompanyStatsOperation({ transport }: OperationDeps) {
  return function getCompanyStats(): Promise<CompanyStatsResult> {
    return transport.request({
      operation: "company/stats",
      method: "GET",
      normalise(data) {
        const r = readFields(data, "response data");
        return {
          company: normaliseOptionalCompany(r.raw("company")),
          stats: normaliseCompanyStats(r.object("stats") ?? {}),
          extra: r.extra(),
        };
      },
    });
  };
}
