import { readFields } from "../field-reader";
import { isRecord } from "../scalars";
import type { Ambassador, Company, Extra, KnownOr } from "../types";
import type { Money } from "../money";
import { normaliseAmbassador } from "./ambassador";
import { normaliseOptionalCompany } from "./company";

export interface BalanceChange {
  ambassador: Ambassador | null;
  company: Company | null;
  balance: {
    old: Money | null;
    new: Money | null;
    type: KnownOr<"money" | "points"> | null;
    extra: Extra;
  };
  extra: Extra;
}

/** balance/add and balance/deduct answers. */
export function normaliseBalanceChange(data: unknown): BalanceChange {
  const r = readFields(data, "response data");
  const ambassador = r.raw("ambassador");
  const balance = readFields(r.object("balance") ?? {}, "balance");
  return {
    ambassador: isRecord(ambassador) ? normaliseAmbassador(ambassador) : null,
    company: normaliseOptionalCompany(r.raw("company")),
    balance: { old: balance.money("old"), new: balance.money("new"), type: balance.text("type"), extra: balance.extra() },
    extra: r.extra(),
  };
}
