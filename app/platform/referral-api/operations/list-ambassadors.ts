import { normaliseAmbassador } from "../normalise/ambassador";
import { normalisePage } from "../normalise/page";
import { type IterateOptions, iteratePages } from "../paging";
import { encodeParams } from "../params";
import type { Ambassador, Page } from "../types";
import type { OperationDeps } from "./deps";
import { type Amount, RENAMED_PARAMS } from "./param-groups";

export interface ListAmbassadorsFilter {
  /** Inclusive minimum money balance. */
  minMoney?: Amount;
  /** Inclusive minimum points balance. */
  minPoints?: number;
  /** Inclusive minimum of unique referrals. */
  minReferrals?: number;
  email?: string;
  uid?: string;
  /** true: active only, false: deactivated only, absent: all. */
  isActive?: boolean;
  /** created_at__lte: created on or before. */
  createdBefore?: Date | string;
  /** created_at__gte: created on or after. */
  createdAfter?: Date | string;
  sandbox?: boolean;
  /** Group uid. */
  group?: string;
}

export interface ListAmbassadorsParams extends ListAmbassadorsFilter {
  /** 1-based; at most 100 ambassadors per page. */
  page?: number;
}

/** GET ambassador/all: one page of ambassadors. */
export function listAmbassadorsOperation({ transport }: OperationDeps) {
  return function listAmbassadors(params: ListAmbassadorsParams = {}): Promise<Page<Ambassador>> {
    const page = params.page ?? 1;
    return transport.request({
      operation: "ambassador/all",
      method: "GET",
      params: encodeParams({ ...params, page }, RENAMED_PARAMS),
      normalise: (data) => normalisePage(data, "ambassadors", page, normaliseAmbassador),
    });
  };
}

/** Every ambassador matching the filter, across all pages of ambassador/all. */
export function iterateAmbassadorsOperation(deps: OperationDeps) {
  const listAmbassadors = listAmbassadorsOperation(deps);
  return function iterateAmbassadors(filter: ListAmbassadorsFilter = {}, options?: IterateOptions) {
    return iteratePages((page) => listAmbassadors({ ...filter, page }), (a) => a.email, options);
  };
}
