import { saysDuplicateTransaction } from "../classify";
import { flattenErrors } from "../envelope";
import { readFields } from "../field-reader";
import { type AmbassadorResult, normaliseAmbassadorResult } from "../normalise/ambassador-result";
import { encodeParams } from "../params";
import { isRecord, parseText } from "../scalars";
import type { Extra } from "../types";
import type { OperationDeps } from "./deps";
import type { Amount, CreationFlags, CustomFields, EventDataFields, Id } from "./param-groups";

export interface RecordMultiEventParams extends CustomFields, CreationFlags, EventDataFields {
  email: string;
  /** Several campaigns; sent comma-separated. */
  campaignUid: Id | readonly Id[];
  shortCode?: string;
  revenue?: Amount;
  transactionUid?: string;
  ipAddress?: string;
  uid?: string;
  firstName?: string;
  lastName?: string;
  isApproved?: boolean;
}

export type MultiEventItem =
  | { campaignUid: string; ok: true; code: string | null; data: AmbassadorResult }
  | {
      campaignUid: string;
      ok: false;
      code: string | null;
      message: string | null;
      /** The service's strings for this campaign, exactly as sent. */
      errors: string[];
      /** The campaign already has this transaction_uid: for a retry, success. */
      duplicate: boolean;
    };

export interface MultiEventResult {
  /** One entry per campaign, in the service's order. */
  items: MultiEventItem[];
  extra: Extra;
}

function normaliseItem(key: string, raw: unknown): MultiEventItem {
  const entry = isRecord(raw) ? raw : {};
  const campaignUid = parseText(entry.campaign_uid) ?? key.replace(/^campaign_/, "");
  const code = parseText(entry.code);
  const errors = flattenErrors(entry.errors);
  const succeeded = errors.length === 0 && isRecord(entry.data) && (code === null || code.startsWith("2"));
  if (succeeded) return { campaignUid, ok: true, code, data: normaliseAmbassadorResult(entry.data) };
  const message = parseText(entry.message);
  return {
    campaignUid,
    ok: false,
    code,
    message,
    errors,
    duplicate: [...errors, message ?? ""].some(saysDuplicateTransaction),
  };
}

export function normaliseMultiEventResult(data: unknown): MultiEventResult {
  const r = readFields(data, "response data");
  const item = r.raw("item");
  const entries: [string, unknown][] = Array.isArray(item)
    ? item.map((entry, index) => [String(index), entry])
    : Object.entries(isRecord(item) ? item : {});
  return { items: entries.map(([key, raw]) => normaliseItem(key, raw)), extra: r.extra() };
}

/**
 * POST event/multi_record: one event for several campaigns. The call succeeds
 * when some campaigns fail; each item says how its campaign went.
 */
export function recordMultiEventOperation({ transport }: OperationDeps) {
  return function recordMultiEvent(params: RecordMultiEventParams): Promise<MultiEventResult> {
    return transport.request({
      operation: "event/multi_record",
      method: "POST",
      params: encodeParams(params),
      normalise: normaliseMultiEventResult,
    });
  };
}
