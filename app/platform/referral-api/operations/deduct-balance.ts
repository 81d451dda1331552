import { type BalanceChange, normaliseBalanceChange } from "../normalise/balance-change";
import { encodeParams } from "../params";
import type { BalanceParams } from "./balance-params";
import type { OperationDeps } from "./deps";

/**
 * POST balance/deduct: deducts money or points from an ambassador's balance.
 * @deprecated The service deprecated balance/deduct on 10 June 2018; no removal date is known.
 */
export function deductBalanceOperation({ transport }: OperationDeps) {
  /** @deprecated balance/deduct is deprecated by the service (10 June 2018). */
  return function deductBalance(params: BalanceParams): Promise<BalanceChange> {
    return transport.request({
      operation: "balance/deduct",
      method: "POST",
      params: encodeParams(params),
      normalise: normaliseBalanceChange,
    });
  };
}
