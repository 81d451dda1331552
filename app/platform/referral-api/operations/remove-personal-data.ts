import { encodeParams } from "../params";
import type { OperationDeps } from "./deps";

export interface RemovePersonalDataParams {
  email: string;
  /** Removal is permanent; the caller says so explicitly. */
  confirm: true;
}

/** POST compliance/remove: permanently removes all personal data of one person. */
export function removePersonalDataOperation({ transport }: OperationDeps) {
  return async function removePersonalData(params: RemovePersonalDataParams): Promise<void> {
    await transport.request({
      operation: "compliance/remove",
      method: "POST",
      params: encodeParams(params),
      normalise: () => undefined,
    });
  };
}
