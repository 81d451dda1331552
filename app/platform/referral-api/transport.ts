import { classifyFailure } from "./classify";
import { readEnvelope } from "./envelope";
import { ReferralApiError } from "./errors";
import { type FetchLike, fetchText, type RawAnswer } from "./fetch-text";
import { MalformedResponseError } from "./field-reader";
import type { WireParams } from "./params";
import { redactSecrets } from "../text/redact";
import { parseRetryAfter } from "./retry-after";

export type { FetchLike } from "./fetch-text";

/** The pino-compatible subset the client logs to. */
export interface ReferralLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export type HttpMethod = "GET" | "POST";

export interface TransportConfig {
  baseUrl: string;
  username: string;
  token: string;
  timeoutMs: number;
  fetch: FetchLike;
  logger?: ReferralLogger;
}

export interface ServiceRequest<T> {
  /** e.g. "event/record" */
  operation: string;
  method: HttpMethod;
  params?: WireParams;
  /** compliance/export answers success without the envelope. */
  allowUnwrapped?: boolean;
  normalise: (data: unknown) => T;
}

export interface Transport {
  request<T>(request: ServiceRequest<T>): Promise<T>;
  /** baseUrl + username: identifies the account, e.g. for rate limits. Holds no secret. */
  readonly accountKey: string;
  readonly logger?: ReferralLogger;
}

/** `{base}/api/v2/{username}/{token}/json/<operation>/`; never log or throw this. */
export function buildServiceUrl(baseUrl: string, username: string, token: string, operation: string): string {
  const path = operation.replace(/^\/+|\/+$/g, "");
  return `${baseUrl}/api/v2/${encodeURIComponent(username)}/${encodeURIComponent(token)}/json/${path}/`;
}

/**
 * Strips trailing slashes and checks the base is an absolute http(s) URL
 * without user info, query or fragment (either would swallow the path the
 * client appends). Which hosts may be called is the network guard's part.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(baseUrl);
  } catch {
    parsed = null;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    throw new TypeError("Referral service baseUrl must be an absolute http(s) URL");
  }
  if (parsed.username || parsed.password || /[?#]/.test(baseUrl)) {
    throw new TypeError("Referral service baseUrl must have no user info, query or fragment");
  }
  return baseUrl.replace(/\/+$/, "");
}

export function createTransport(config: TransportConfig): Transport {
  const { baseUrl, username, token, timeoutMs, fetch: fetchImpl, logger } = config;
  const secrets = [token];
  const clean = (text: string) => redactSecrets(text, secrets);

  function send(operation: string, method: HttpMethod, params: WireParams): Promise<RawAnswer> {
    let url = buildServiceUrl(baseUrl, username, token, operation);
    const body = new URLSearchParams(params);
    const init: RequestInit = { method, redirect: "manual", headers: { accept: "application/json" } };
    if (method === "GET") {
      if ([...body.keys()].length > 0) url += `?${body.toString()}`;
    } else {
      init.body = body.toString();
      init.headers = { ...init.headers, "content-type": "application/x-www-form-urlencoded;charset=UTF-8" };
    }
    return fetchText(fetchImpl, url, init, { operation, timeoutMs, secrets });
  }

  function interpret(operation: string, allowUnwrapped: boolean, answer: RawAnswer) {
    const { status, headers, text } = answer;
    const success = status >= 200 && status < 300;
    let body: unknown;
    let isJson = true;
    try {
      body = JSON.parse(text);
    } catch {
      isJson = false;
    }

    if (!isJson) {
      // The text of a non-JSON page helps classify (e.g. an auth message) but is
      // never copied into the error: it may echo the request URL.
      const kind = success ? "server" : classifyFailure({ status, texts: [text.slice(0, 2000)] });
      throw new ReferralApiError({
        kind,
        operation,
        status,
        detail: success ? "the answer was not JSON" : undefined,
        retryAfterMs: parseRetryAfter(headers.get("retry-after")),
      });
    }

    const reading = readEnvelope(body, { allowUnwrapped });
    if (success && reading.ok) return reading.data;

    const texts = [...(reading.ok ? [] : reading.errors), reading.message ?? ""].filter(Boolean);
    const errors = reading.ok ? [] : reading.errors.map(clean);
    const kind = classifyFailure({
      status,
      code: reading.code,
      texts,
      hasServiceErrors: !reading.ok && reading.errors.length > 0,
    });
    throw new ReferralApiError({
      kind,
      operation,
      status,
      code: reading.code,
      errors,
      detail: success && !reading.ok && !reading.recognised ? "the answer was not a service envelope" : undefined,
      retryAfterMs: parseRetryAfter(headers.get("retry-after")),
    });
  }

  async function request<T>({ operation, method, params = {}, allowUnwrapped = false, normalise }: ServiceRequest<T>) {
    const started = performance.now();
    let status: number | undefined;
    const line = () => ({ operation, method, status, durationMs: Math.round(performance.now() - started) });
    try {
      const answer = await send(operation, method, params);
      status = answer.status;
      const data = interpret(operation, allowUnwrapped, answer);
      let value: T;
      try {
        value = normalise(data);
      } catch (error) {
        if (!(error instanceof MalformedResponseError)) throw error;
        throw new ReferralApiError({ kind: "server", operation, status, detail: `unexpected answer: ${clean(error.message)}` });
      }
      logger?.debug(line(), "referral service call");
      return value;
    } catch (error) {
      if (error instanceof ReferralApiError) {
        logger?.warn(
          { ...line(), kind: error.kind, retryable: error.retryable, code: error.code, errors: error.errors },
          "referral service call failed",
        );
      }
      throw error;
    }
  }

  return { request, accountKey: `${baseUrl}|${username}`, logger };
}
