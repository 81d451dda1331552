import { normaliseCommission } from "../normalise/commission";
import { normalisePage } from "../normalise/page";
import { type IterateOptions, iteratePages } from "../paging";
import { encodeParams } from "../params";
import type { Commission, CommissionStatus, Page } from "../types";
import type { OperationDeps } from "./deps";
import { RENAMED_PARAMS } from "./param-groups";

const STATUS_CODE: Record<CommissionStatus, string> = { pending: "0", approved: "1", denied: "2" };

export interface ListCommissionsFilter {
  email?: string;
  uid?: string;
  /** Absent: all. */
  status?: CommissionStatus;
  /** true: sandbox only, false: production only, absent: all. */
  sandbox?: boolean;
  /** true: only welcome bonuses, false: only others, absent: all. */
  isWelcomeBonus?: boolean;
  /** created_at__lte (the date taken as midnight). */
  createdBefore?: Date | string;
  /** created_at__gte (the date taken as midnight). */
  createdAfter?: Date | string;
}

export interface ListCommissionsParams extends ListCommissionsFilter {
  /** 1-based; at most 100 commissions per page. */
  page?: number;
}

/** POST commission/all: one page of commissions. */
export function listCommissionsOperation({ transport }: OperationDeps) {
  return function listCommissions(params: ListCommissionsParams = {}): Promise<Page<Commission>> {
    const { status, ...rest } = params;
    const page = params.page ?? 1;
    const isApproved = status === undefined ? undefined : STATUS_CODE[status];
    return transport.request({
      operation: "commission/all",
      method: "POST",
      params: encodeParams({ ...rest, isApproved, page }, RENAMED_PARAMS),
      normalise: (data) => normalisePage(data, "commissions", page, normaliseCommission),
    });
  };
}

/** Every commission matching the filter, across all pages of commission/all. */
export function iterateCommissionsOperation(deps: OperationDeps) {
  const listCommissions = listCommissionsOperation(deps);
  return function iterateCommissions(filter: ListCommissionsFilter = {}, options?: IterateOptions) {
    return iteratePages((page) => listCommissions({ ...filter, page }), (c) => c.commissionUid, options);
  };
}
