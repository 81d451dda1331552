import { readFields } from "../field-reader";
import type { OperationDeps } from "./deps";

/**
 * GET company/token: a one-time single sign-on token. It is a secret: the
 * client never logs it; callers must not either.
 */
export function getCompanyTokenOperation({ transport }: OperationDeps) {
  return function getCompanyToken(): Promise<{ token: string }> {
    return transport.request({
      operation: "company/token",
      method: "GET",
      normalise: (data) => ({ token: readFields(data, "response data").requiredText("token") }),
    });
  };
}
