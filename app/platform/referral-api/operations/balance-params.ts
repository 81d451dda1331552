import type { Amount, CreationFlags, FirstCustomFields, SandboxFlag } from "./param-groups";

export interface BalanceParams extends FirstCustomFields, Omit<CreationFlags, "addToGroupId">, SandboxFlag {
  email: string;
  amount: Amount;
  /** The service's error text lists type as required. */
  type: "money" | "points";
  uid?: string;
}
