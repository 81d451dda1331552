// The v2 response envelope and the error texts of the interface document.

export const MESSAGES = {
  200: "OK: The request was successful.",
  400: "BAD REQUEST: The parameters provided were invalid.",
  401: "UNAUTHORIZED: The request could not be authenticated.",
  404: "NOT FOUND: The requested resource does not exist.",
  405: "METHOD NOT ALLOWED: Use GET or POST.",
  413: "PAYLOAD TOO LARGE: The request body is too large.",
  429: "TOO MANY REQUESTS: Rate limit exceeded.",
  500: "INTERNAL SERVER ERROR: The server encountered an unexpected error.",
} as const;

export type ErrorStatus = 400 | 401 | 404 | 405 | 413 | 429 | 500 | 503;

export interface SuccessEnvelope {
  response: { code: "200"; message: string; data: unknown };
}

export interface ErrorEnvelope {
  response: { code: string; message: string; errors: { error: string[] } };
}

export function okEnvelope(data: unknown): SuccessEnvelope {
  return { response: { code: "200", message: MESSAGES[200], data } };
}

/** A failure an operation reports; the router turns it into an envelope and HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly errors: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.join(" "));
  }

  envelope(): ErrorEnvelope {
    // 503 keeps the plain "500" envelope: the HTTP status tells the two apart.
    const code = this.status === 503 ? 500 : this.status;
    return { response: { code: String(code), message: MESSAGES[code], errors: { error: this.errors } } };
  }
}

export const badRequest = (...errors: string[]) => new ApiError(400, errors);
export const notFound = (...errors: string[]) => new ApiError(404, errors);

export const AUTH_FAILED = "The user could not be authenticated.";
export const NOT_PENDING = "You can change state of pending commission only.";
export const INVALID_CAMPAIGN = "Invalid campaign_uid.";
export const DUPLICATE_TRANSACTION = "A commission with this transaction_uid already exists for this campaign.";

export const campaignUnavailable = (uid: string) =>
  `The campaign_uid ${uid} has expired, does not exist or does not belong to the company.`;

/** GET-style operations say "GET/POST"; POST operations say "POST" for a single missing parameter. */
export type ParamWording = "POST" | "GET/POST";

export function requiredMessage(names: string[], wording: ParamWording): string {
  if (names.length === 1) return `The following ${wording} parameter is required: ${names[0]}.`;
  return `The following GET/POST parameters are required: ${names.join(", ")}.`;
}

export function notNumbersMessage(names: string[], wording: ParamWording): string {
  return `The following ${wording} parameters are not numbers. ${names.map((n) => `"${n}"`).join(", ")}`;
}
