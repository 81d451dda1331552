import { readFields } from "../field-reader";
import { normaliseShortCode } from "../normalise/short-code";
import { encodeParams } from "../params";
import type { ShortCode } from "../types";
import type { OperationDeps } from "./deps";

export interface GetShortCodeParams {
  shortCode: string;
  /** The short code belongs to a test campaign. */
  sandbox?: boolean;
}

/** GET shortcode/get: who a short code belongs to and for which campaign. */
export function getShortCodeOperation({ transport }: OperationDeps) {
  return function getShortCode(params: GetShortCodeParams): Promise<ShortCode> {
    return transport.request({
      operation: "shortcode/get",
      method: "GET",
      params: encodeParams(params),
      normalise: (data) => normaliseShortCode(readFields(data, "response data").raw("shortcode")),
    });
  };
}
