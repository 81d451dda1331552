import { classifyFailure } from "./classify";
import { flattenErrors } from "./envelope";
import { ReferralApiError } from "./errors";
import { redactSecrets } from "../text/redact";
import { parseRetryAfter } from "./retry-after";
import { isRecord, parseNumber, parseText } from "./scalars";
import { type FetchLike, fetchText } from "./fetch-text";
import type { ReferralLogger } from "./transport";

export interface TokenApiOptions {
  /** `{token_api_url}`: configuration, no default. A trailing slash is ignored. */
  apiUrl: string;
  apiKey?: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  logger?: ReferralLogger;
}

export interface ListQuery {
  page?: number;
  /** Results per page (`page_size` is accepted too). */
  pageSize?: number;
  page_size?: number;
  /** Case-insensitive; several terms must ALL match. */
  search?: string | readonly string[];
  /** A field name; prefix "-" for descending. */
  ordering?: string;
}

export interface ListPage<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

const KEY_FIELDS = ["api_key", "key", "token", "apiKey"];

/**
 * Client of the token-header interface (`Authorization: Token <API_KEY>`): the
 * api-key operation, the entry point and the list conventions (page,
 * page_size, search, ordering; count/next/previous/results).
 */
export function createTokenApiClient(options: TokenApiOptions) {
  let base: URL;
  try {
    base = new URL(options.apiUrl);
  } catch {
    throw new TypeError("Token interface apiUrl must be an absolute http(s) URL");
  }
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 10_000;
  let apiKey = options.apiKey;

  const secrets = () => (apiKey ? [apiKey] : []);

  /** Resolves a path against apiUrl; an absolute URL must stay on apiUrl's origin (the key must not travel elsewhere). */
  function resolve(pathOrUrl: string, operation: string): string {
    if (/^https?:\/\//i.test(pathOrUrl)) {
      if (new URL(pathOrUrl).origin !== base.origin) {
        throw new ReferralApiError({ kind: "server", operation, detail: "a link points to another origin" });
      }
      return pathOrUrl;
    }
    const path = pathOrUrl.replace(/^\/+/, "");
    return `${apiUrl}/${path}${path === "" || path.endsWith("/") || path.includes("?") ? "" : "/"}`;
  }

  async function call(operation: string, url: string, init: RequestInit, authorised: boolean): Promise<unknown> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (authorised) {
      if (!apiKey) throw new ReferralApiError({ kind: "authentication", operation, detail: "no API key configured" });
      headers.authorization = `Token ${apiKey}`;
    }
    const started = performance.now();
    const { status, headers: answerHeaders, text } = await fetchText(fetchImpl, url, { ...init, headers }, { operation, timeoutMs, secrets: secrets() });
    const log = { operation, method: init.method ?? "GET", status, durationMs: Math.round(performance.now() - started) };
    let body: unknown;
    let isJson = true;
    try {
      body = JSON.parse(text);
    } catch {
      isJson = false;
    }
    if (status >= 200 && status < 300 && isJson) {
      options.logger?.debug(log, "referral token interface call");
      return body;
    }
    const said = isJson ? flattenErrors(body) : [];
    const errors = said.map((e) => redactSecrets(e, secrets()));
    const kind =
      status >= 200 && status < 300
        ? "server"
        : classifyFailure({ status, texts: isJson ? said : [text.slice(0, 2000)], hasServiceErrors: said.length > 0 });
    const error = new ReferralApiError({
      kind,
      operation,
      status,
      errors,
      detail: isJson ? undefined : "the answer was not JSON",
      retryAfterMs: parseRetryAfter(answerHeaders.get("retry-after")),
    });
    options.logger?.warn({ ...log, kind, retryable: error.retryable, errors }, "referral token interface call failed");
    throw error;
  }

  async function obtainApiKey(username: string, password: string): Promise<string> {
    const form = new FormData();
    form.set("username", username);
    form.set("password", password);
    const body = await call("token-api/api-key", resolve("api-key/", "token-api/api-key"), { method: "POST", body: form }, false);
    const key = isRecord(body) ? KEY_FIELDS.map((field) => parseText(body[field])).find(Boolean) : parseText(body);
    if (!key) throw new ReferralApiError({ kind: "server", operation: "token-api/api-key", detail: "the answer carried no key" });
    apiKey = key;
    return key;
  }

  async function entryPoint(): Promise<Record<string, string>> {
    const body = await call("token-api/entry-point", `${apiUrl}/`, { method: "GET" }, true);
    const links: Record<string, string> = {};
    if (isRecord(body)) for (const [name, value] of Object.entries(body)) if (typeof value === "string") links[name] = value;
    return links;
  }

  async function fetchPage<T>(operation: string, url: string): Promise<ListPage<T>> {
    const body = await call(operation, url, { method: "GET" }, true);
    if (!isRecord(body)) throw new ReferralApiError({ kind: "server", operation, detail: "a list answer was not an object" });
    const results = Array.isArray(body.results) ? (body.results as T[]) : [];
    return {
      count: parseNumber(body.count) ?? results.length,
      next: parseText(body.next) || null,
      previous: parseText(body.previous) || null,
      results,
    };
  }

  function firstPageUrl(pathOrUrl: string, query: ListQuery, operation: string): string {
    const url = new URL(resolve(pathOrUrl, operation));
    const pageSize = query.pageSize ?? query.page_size;
    const search = typeof query.search === "string" ? query.search : query.search?.join(" ");
    if (query.page !== undefined) url.searchParams.set("page", String(query.page));
    if (pageSize !== undefined) url.searchParams.set("page_size", String(pageSize));
    if (search) url.searchParams.set("search", search);
    if (query.ordering) url.searchParams.set("ordering", query.ordering);
    return url.toString();
  }

  function operationOf(pathOrUrl: string): string {
    const path = /^https?:\/\//i.test(pathOrUrl) ? new URL(pathOrUrl).pathname : pathOrUrl;
    return `token-api/${path.replace(/^\/+|\/+$/g, "")}`;
  }

  /** One page of a list resource (a path under apiUrl, or a link such as `companies` from entryPoint). */
  async function listPage<T = Record<string, unknown>>(pathOrUrl: string, query: ListQuery = {}): Promise<ListPage<T>> {
    const operation = operationOf(pathOrUrl);
    return fetchPage<T>(operation, firstPageUrl(pathOrUrl, query, operation));
  }

  /** Every result of a list resource, following `next` until it is null. */
  async function* list<T = Record<string, unknown>>(pathOrUrl: string, query: ListQuery = {}): AsyncGenerator<T, void, undefined> {
    const operation = operationOf(pathOrUrl);
    const seen = new Set<string>();
    let url: string | null = firstPageUrl(pathOrUrl, query, operation);
    while (url && !seen.has(url)) {
      seen.add(url);
      const page: ListPage<T> = await fetchPage<T>(operation, url);
      yield* page.results;
      url = page.next ? resolve(new URL(page.next, url).toString(), operation) : null;
    }
  }

  return { obtainApiKey, entryPoint, listPage, list };
}

export type TokenApiClient = ReturnType<typeof createTokenApiClient>;
