import type { Transport } from "../transport";

/** What every operation factory is built over. */
export interface OperationDeps {
  transport: Transport;
}
