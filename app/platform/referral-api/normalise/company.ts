import { readFields } from "../field-reader";
import { isRecord } from "../scalars";
import type { Company } from "../types";

export function normaliseCompany(raw: unknown): Company {
  const r = readFields(raw, "company");
  return {
    companyName: r.text("company_name"),
    companyUrl: r.text("company_url"),
    companyEmail: r.text("company_email"),
    pointName: r.text("point_name"),
    outgoingEmail: r.text("outgoing_email"),
    avatarUrl: r.text("avatar_url"),
    extra: r.extra(),
  };
}

export function normaliseOptionalCompany(raw: unknown): Company | null {
  return isRecord(raw) ? normaliseCompany(raw) : null;
}
