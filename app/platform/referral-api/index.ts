/**
 * Client of the referral service (server-only). See README.md in this folder.
 */
export { createReferralClient, type ReferralClient, type ReferralClientOptions } from "./client";
export { createTokenApiClient, type TokenApiClient, type TokenApiOptions, type ListPage, type ListQuery } from "./token-api";
export {
  ReferralApiError,
  isReferralApiError,
  isDuplicateTransaction,
  isRetryableKind,
  type ReferralApiErrorKind,
} from "./errors";
export { classifyFailure, saysDuplicateTransaction, type FailureFacts } from "./classify";
export { acceptDuplicate, settle, type RecordOutcome, type Settled } from "./result";
export { redactServiceUrl, redactSecrets, REDACTED } from "../text/redact";
export { createExportLimiter, sharedExportLimiter, type ExportLimiter, type ExportLimiterOptions } from "./export-limiter";
export {
  type Money,
  parseMoney,
  tryParseMoney,
  addMoney,
  subtractMoney,
  compareMoney,
  moneyToCents,
  moneyFromCents,
} from "./money";
export { parseServiceDate, parseUnixSeconds, formatServiceDate } from "./dates";
export { parseFlag, parseNumber } from "./scalars";
export { describeReward, decodeRewardType, type RewardType } from "./reward";
export { parseCommissionStatus } from "./normalise/commission";
export type { FetchLike, ReferralLogger } from "./transport";
export { SERVICE_REDIRECT } from "./fetch-text";
export { ADDRESS_REFUSED, createGuardedFetch, type HttpsTestSeam } from "./guarded-fetch";
export { checkServiceBaseUrl, refusedAddress, STRICT_NETWORK, type AddressProblem, type ServiceNetworkPolicy } from "./service-address";
export type { Sleep } from "../http/sleep";
export type { IterateOptions } from "./paging";
export type * from "./types";
export type { AmbassadorResult } from "./normalise/ambassador-result";
export type { MessageResult } from "./normalise/message";
export type { BalanceChange } from "./normalise/balance-change";
export type { RecordEventParams } from "./operations/record-event";
export type { RecordMultiEventParams, MultiEventItem, MultiEventResult } from "./operations/record-multi-event";
export type { GetAmbassadorParams } from "./operations/get-ambassador";
export type { GetAmbassadorStatsParams } from "./operations/get-ambassador-stats";
export type { ListAmbassadorsFilter, ListAmbassadorsParams } from "./operations/list-ambassadors";
export type { UpdateAmbassadorParams } from "./operations/update-ambassador";
export type { BalanceParams } from "./operations/balance-params";
export type { GetShortCodeParams } from "./operations/get-short-code";
export type { CompanyDetails } from "./operations/get-company";
export type { CompanyStatsResult } from "./operations/get-company-stats";
export type { CompanyEmails, CompanyEmailsParams } from "./operations/get-company-emails";
export type { GetGroupParams, GroupPage } from "./operations/get-group";
export type { ListCommissionsFilter, ListCommissionsParams } from "./operations/list-commissions";
export type { CommissionKey, UpdateCommissionParams } from "./operations/update-commission";
export type { AddCommissionParams, AddCommissionResult } from "./operations/add-commission";
export type { RemovePersonalDataParams } from "./operations/remove-personal-data";
export type { PersonalDataExport } from "./operations/export-personal-data";
export type { Amount, Id, AmbassadorKey } from "./operations/param-groups";
