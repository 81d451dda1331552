import { isReferralApiError } from "../errors";
import type { ExportLimiter } from "../export-limiter";
import { readFields } from "../field-reader";
import { encodeParams } from "../params";
import { isRecord } from "../scalars";
import type { Sleep } from "../../http/sleep";
import type { Extra } from "../types";
import type { OperationDeps } from "./deps";

type Rows = Record<string, unknown>[];

/**
 * The personal data document of compliance/export. Its inner objects are kept
 * as the service sent them (snake_case): they go to the data subject as they are.
 */
export interface PersonalDataExport {
  profile: Record<string, unknown> | null;
  ipAddresses: string[];
  satisfactionSurveys: Rows;
  fingerprints: Rows;
  socialData: Record<string, unknown> | null;
  emails: Rows;
  /** The whole document exactly as received. */
  raw: Record<string, unknown>;
  extra: Extra;
}

export interface ExportDeps extends OperationDeps {
  limiter: ExportLimiter;
  sleep: Sleep;
  /** How many times a 429 answer is waited out and retried (default 3). */
  maxRateLimitRetries?: number;
}

/** Used when a 429 carries no Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 10_000;
const MAX_RETRY_AFTER_MS = 60_000;

function rows(value: unknown[]): Rows {
  return value.filter(isRecord);
}

function normaliseExport(data: unknown): PersonalDataExport {
  const raw = isRecord(data) ? data : {};
  const r = readFields(raw, "personal data export");
  return {
    profile: r.object("profile"),
    ipAddresses: r.array("ip_addresses").map(String),
    satisfactionSurveys: rows(r.array("satisfaction_surveys")),
    fingerprints: rows(r.array("fingerprints")),
    socialData: r.object("social_data"),
    emails: rows(r.array("emails")),
    raw,
    extra: r.extra(),
  };
}

/**
 * POST compliance/export: one person's personal data. The service allows 6 per
 * minute per account: calls wait for the limiter, and a 429 that still comes
 * back is waited out (Retry-After) and retried a bounded number of times.
 */
export function exportPersonalDataOperation({ transport, limiter, sleep, maxRateLimitRetries = 3 }: ExportDeps) {
  return async function exportPersonalData(params: { email: string }): Promise<PersonalDataExport> {
    for (let attempt = 0; ; attempt += 1) {
      const waitedMs = await limiter.acquire(transport.accountKey);
      if (waitedMs > 0) transport.logger?.debug({ operation: "compliance/export", waitedMs }, "waited for export rate limit");
      try {
        return await transport.request({
          operation: "compliance/export",
          method: "POST",
          params: encodeParams(params),
          allowUnwrapped: true,
          normalise: normaliseExport,
        });
      } catch (error) {
        if (!isReferralApiError(error) || error.kind !== "rate_limited" || attempt >= maxRateLimitRetries) throw error;
        await sleep(Math.min(error.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS, MAX_RETRY_AFTER_MS));
      }
    }
  };
}
