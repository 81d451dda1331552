import { type ExportLimiter, sharedExportLimiter } from "./export-limiter";
import { addBalanceOperation } from "./operations/add-balance";
import { addCommissionOperation } from "./operations/add-commission";
import { deductBalanceOperation } from "./operations/deduct-balance";
import { exportPersonalDataOperation } from "./operations/export-personal-data";
import { getAmbassadorOperation } from "./operations/get-ambassador";
import { getAmbassadorStatsOperation } from "./operations/get-ambassador-stats";
import { getCompanyOperation } from "./operations/get-company";
import { getCompanyEmailsOperation } from "./operations/get-company-emails";
import { getCompanyStatsOperation } from "./operations/get-company-stats";
import { getCompanyTokenOperation } from "./operations/get-company-token";
import { getGroupOperation, iterateGroupMembersOperation } from "./operations/get-group";
import { getShortCodeOperation } from "./operations/get-short-code";
import { iterateAmbassadorsOperation, listAmbassadorsOperation } from "./operations/list-ambassadors";
import { iterateCommissionsOperation, listCommissionsOperation } from "./operations/list-commissions";
import { listGroupsOperation } from "./operations/list-groups";
import { recordEventOperation } from "./operations/record-event";
import { recordMultiEventOperation } from "./operations/record-multi-event";
import { removePersonalDataOperation } from "./operations/remove-personal-data";
import { updateAmbassadorOperation } from "./operations/update-ambassador";
import { updateCommissionOperation } from "./operations/update-commission";
import { createGuardedFetch } from "./guarded-fetch";
import { STRICT_NETWORK, type ServiceNetworkPolicy } from "./service-address";
import { realSleep, type Sleep } from "../http/sleep";
import { createTransport, type FetchLike, normaliseBaseUrl, type ReferralLogger } from "./transport";

export interface ReferralClientOptions {
  /** The service's base URL (configuration; there is no default host). A trailing slash is ignored. */
  baseUrl: string;
  username: string;
  /** Travels in the URL path; never logged, never in an error. */
  token: string;
  /** Per request, including reading the body (default 10 s). */
  timeoutMs?: number;
  /** Replaces the network (tests); without it, calls go through the address guard of `network`. */
  fetch?: FetchLike;
  /** Which addresses the service may be at (default: public https only). */
  network?: ServiceNetworkPolicy;
  logger?: ReferralLogger;
  /** compliance/export pacing (default: one limiter per process, 6 per minute per account). */
  exportLimiter?: ExportLimiter;
  /** How compliance/export waits out a 429 (default: a real timer). */
  sleep?: Sleep;
  /** How many 429 answers compliance/export waits out before failing (default 3). */
  exportRateLimitRetries?: number;
}

/**
 * A typed client of the v2 interface, one method per operation. Results are
 * normalised (see types.ts); failures throw ReferralApiError.
 */
export function createReferralClient(options: ReferralClientOptions) {
  const { username, token } = options;
  if (typeof username !== "string" || username === "" || typeof token !== "string" || token === "") {
    throw new TypeError("Referral service username and token are required");
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!(timeoutMs > 0)) throw new RangeError("Referral service timeoutMs must be positive");

  const transport = createTransport({
    baseUrl: normaliseBaseUrl(options.baseUrl),
    username,
    token,
    timeoutMs,
    fetch: options.fetch ?? createGuardedFetch(options.network ?? STRICT_NETWORK),
    logger: options.logger,
  });
  const deps = { transport };

  return {
    recordEvent: recordEventOperation(deps),
    recordMultiEvent: recordMultiEventOperation(deps),
    getAmbassador: getAmbassadorOperation(deps),
    getAmbassadorStats: getAmbassadorStatsOperation(deps),
    listAmbassadors: listAmbassadorsOperation(deps),
    iterateAmbassadors: iterateAmbassadorsOperation(deps),
    updateAmbassador: updateAmbassadorOperation(deps),
    /** @deprecated balance/add is deprecated by the service (10 June 2018). */
    addBalance: addBalanceOperation(deps),
    /** @deprecated balance/deduct is deprecated by the service (10 June 2018). */
    deductBalance: deductBalanceOperation(deps),
    getShortCode: getShortCodeOperation(deps),
    getCompany: getCompanyOperation(deps),
    getCompanyStats: getCompanyStatsOperation(deps),
    getCompanyToken: getCompanyTokenOperation(deps),
    getCompanyEmails: getCompanyEmailsOperation(deps),
    listGroups: listGroupsOperation(deps),
    getGroup: getGroupOperation(deps),
    iterateGroupMembers: iterateGroupMembersOperation(deps),
    listCommissions: listCommissionsOperation(deps),
    iterateCommissions: iterateCommissionsOperation(deps),
    updateCommission: updateCommissionOperation(deps),
    addCommission: addCommissionOperation(deps),
    removePersonalData: removePersonalDataOperation(deps),
    exportPersonalData: exportPersonalDataOperation({
      ...deps,
      limiter: options.exportLimiter ?? sharedExportLimiter,
      sleep: options.sleep ?? realSleep,
      maxRateLimitRetries: options.exportRateLimitRetries,
    }),
  };
}

export type ReferralClient = ReturnType<typeof createReferralClient>;
