import { ambassadorOperations } from "./ambassadors";
import { balanceOperations } from "./balances";
import { commissionOperations } from "./commissions";
import { companyOperations } from "./company";
import { complianceOperations } from "./compliance";
import { eventOperations } from "./events";
import { groupOperations } from "./groups";
import type { OperationDef } from "./shared";
import { shortcodeOperations } from "./shortcodes";

/** Every v2 operation of the interface document, by its path below `json/`. */
export const OPERATIONS: Readonly<Record<string, OperationDef>> = {
  ...eventOperations,
  ...ambassadorOperations,
  ...balanceOperations,
  ...shortcodeOperations,
  ...companyOperations,
  ...groupOperations,
  ...commissionOperations,
  ...complianceOperations,
};
