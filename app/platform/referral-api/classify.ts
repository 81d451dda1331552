import type { ReferralApiErrorKind } from "./errors";

/** What is known about a failed answer: HTTP status, envelope code, and every text it carried. */
export interface FailureFacts {
  status?: number;
  code?: string;
  texts: string[];
  /** The body carried the service's own error list. */
  hasServiceErrors?: boolean;
}

const AUTHENTICATION_TEXT =
  /could not be authenticated|not authenticated|authentication (failed|credentials)|invalid (api )?(token|key|credentials)|unable to log in/i;
const RATE_LIMIT_TEXT = /rate limit|too many requests/i;
const DUPLICATE_TEXT =
  /transaction\w*.*(already exists|already been|already recorded|duplicate)|duplicate.*transaction|transaction_uid.*(exists|unique)/i;

/** Does this service text say the transaction was already recorded? */
export function saysDuplicateTransaction(text: string): boolean {
  return DUPLICATE_TEXT.test(text);
}

function codeNumber(code: string | undefined): number | undefined {
  if (code === undefined) return undefined;
  const n = Number.parseInt(code, 10);
  return Number.isNaN(n) ? undefined : n;
}

/**
 * Decides the kind of a failure that got an answer. The service's statuses and
 * envelope codes for most failures are not documented, so each kind is
 * recognised by the HTTP status, the envelope code, or the words used.
 */
export function classifyFailure(facts: FailureFacts): Exclude<ReferralApiErrorKind, "network" | "timeout"> {
  const { status } = facts;
  const code = codeNumber(facts.code);
  const said = (pattern: RegExp) => facts.texts.some((text) => pattern.test(text));
  const is = (...values: number[]) => values.includes(status ?? -1) || values.includes(code ?? -1);

  if (is(401, 403) || said(AUTHENTICATION_TEXT)) return "authentication";
  if (is(429) || said(RATE_LIMIT_TEXT)) return "rate_limited";
  if (said(DUPLICATE_TEXT)) return "duplicate_transaction";
  if (is(404)) return "not_found";
  if ((status !== undefined && status >= 500) || (code !== undefined && code >= 500)) return "server";
  if ((status !== undefined && status >= 400) || (code !== undefined && code >= 400)) return "invalid_request";
  // An error list under a 2xx status is still a rejection of the request; a 2xx
  // answer without data or with an unreadable body means the service misbehaved.
  return facts.hasServiceErrors ? "invalid_request" : "server";
}
