import { readFields } from "../field-reader";
import { normaliseEmailStatsEntry } from "../normalise/email-stats";
import { encodeParams } from "../params";
import type { EmailStatsEntry, Extra } from "../types";
import type { OperationDeps } from "./deps";

export type CompanyEmailsParams =
  | { startDate?: undefined; endDate?: undefined; aggregate?: boolean }
  | {
      /** YYYY-MM-DD (a Date is sent in UTC); only together with endDate. */
      startDate: Date | string;
      endDate: Date | string;
      /** Combine the dates into one entry. */
      aggregate?: boolean;
    };

export interface CompanyEmails {
  /** All email types combined, one entry per date. */
  total: EmailStatsEntry[];
  /** Keyed by email type: newAmbassador, pendingCommission, approvedCommission, ... */
  emailTypes: Record<string, EmailStatsEntry[]>;
  extra: Extra;
}

function normaliseCompanyEmails(data: unknown): CompanyEmails {
  const r = readFields(data, "response data");
  const emailTypes: Record<string, EmailStatsEntry[]> = {};
  for (const [type, entries] of Object.entries(r.object("email_types") ?? {})) {
    emailTypes[type] = Array.isArray(entries) ? entries.map(normaliseEmailStatsEntry) : [];
  }
  return { total: r.array("total").map(normaliseEmailStatsEntry), emailTypes, extra: r.extra() };
}

/**
 * GET company/emails: email statistics. Without a period: today; with
 * aggregate and no period: all-time totals.
 */
export function getCompanyEmailsOperation({ transport }: OperationDeps) {
  return function getCompanyEmails(params: CompanyEmailsParams = {}): Promise<CompanyEmails> {
    return transport.request({
      operation: "company/emails",
      method: "GET",
      params: encodeParams(params),
      normalise: normaliseCompanyEmails,
    });
  };
}
