import { type BalanceChange, normaliseBalanceChange } from "../normalise/balance-change";
import { encodeParams } from "../params";
import type { BalanceParams } from "./balance-params";
import type { OperationDeps } from "./deps";

/**
 * POST balance/add: adds money or points to an ambassador's balance.
 * @deprecated The service deprecated balance/add on 10 June 2018; no removal date is known.
 */
export function addBalanceOperation({ transport }: OperationDeps) {
  /** @deprecated balance/add is deprecated by the service (10 June 2018). */
  return function addBalance(params: BalanceParams): Promise<BalanceChange> {
    return transport.request({
      operation: "balance/add",
      method: "POST",
      params: encodeParams(params),
      normalise: normaliseBalanceChange,
    });
  };
}
