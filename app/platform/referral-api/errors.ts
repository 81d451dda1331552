export type ReferralApiErrorKind =
  | "authentication"
  | "invalid_request"
  | "duplicate_transaction"
  | "rate_limited"
  | "not_found"
  | "server"
  | "network"
  | "timeout";

const RETRYABLE: ReadonlySet<ReferralApiErrorKind> = new Set(["network", "timeout", "server", "rate_limited"]);

export function isRetryableKind(kind: ReferralApiErrorKind): boolean {
  return RETRYABLE.has(kind);
}

const KIND_TEXT: Record<ReferralApiErrorKind, string> = {
  authentication: "authentication failed",
  invalid_request: "request rejected",
  duplicate_transaction: "transaction already recorded",
  rate_limited: "rate limited",
  not_found: "not found",
  server: "service error",
  network: "network error",
  timeout: "timed out",
};

export interface ReferralApiErrorInit {
  kind: ReferralApiErrorKind;
  operation: string;
  /** The service's own error strings, exactly as sent. */
  errors?: string[];
  status?: number;
  /** The envelope's `response.code`, when there was one. */
  code?: string;
  retryAfterMs?: number;
  /** Extra words for the message (already redacted by the caller). */
  detail?: string;
  /** Must already be free of secrets. */
  cause?: unknown;
}

/**
 * The one error the client throws. Its message, stack and cause never carry the
 * service token or a service URL.
 */
export class ReferralApiError extends Error {
  readonly kind: ReferralApiErrorKind;
  readonly retryable: boolean;
  readonly errors: string[];
  readonly status?: number;
  readonly code?: string;
  readonly operation: string;
  readonly retryAfterMs?: number;

  constructor(init: ReferralApiErrorInit) {
    const errors = init.errors ?? [];
    const where = [init.status !== undefined ? `HTTP ${init.status}` : "", init.code ? `code ${init.code}` : ""]
      .filter(Boolean)
      .join(", ");
    const said = [init.detail, ...errors].filter(Boolean).join(" ");
    super(
      `Referral service ${init.operation}: ${KIND_TEXT[init.kind]}${where ? ` (${where})` : ""}${said ? `: ${said}` : ""}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = "ReferralApiError";
    this.kind = init.kind;
    this.retryable = isRetryableKind(init.kind);
    this.errors = errors;
    this.operation = init.operation;
    if (init.status !== undefined) this.status = init.status;
    if (init.code !== undefined) this.code = init.code;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}

export function isReferralApiError(error: unknown): error is ReferralApiError {
  return error instanceof ReferralApiError;
}

/** True when the service said the transaction_uid was already recorded: for a retry this means success. */
export function isDuplicateTransaction(error: unknown): error is ReferralApiError {
  return isReferralApiError(error) && error.kind === "duplicate_transaction";
}
