// The path-credentialed v2 interface: /api/v2/{username}/{token}/json/<operation>/

import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { ApiError, AUTH_FAILED, okEnvelope } from "./envelope";
import { normaliseOperation } from "./faults";
import { BodyError, parseBody, queryFields, readBody, sendJson } from "./http";
import { OPERATIONS } from "./operations";
import { RawJson } from "./operations/shared";
import { Params } from "./params";
import type { SandboxCore } from "./core";

const V2_PATH = /^\/api\/v2\/([^/]*)\/([^/]*)\/([^/]*)\/(.*)$/;

export function isV2Path(pathname: string): boolean {
  return pathname.startsWith("/api/v2/");
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function faultError(action: string): ApiError {
  switch (action) {
    case "fail":
      return new ApiError(503, ["The service is temporarily unavailable."], { "Retry-After": "1" });
    case "rateLimit":
      return new ApiError(429, ["Too many requests; try again later."], { "Retry-After": "1" });
    case "authFail":
      return new ApiError(401, [AUTH_FAILED]);
    default:
      return new ApiError(500, ["The server encountered an unexpected error."]);
  }
}

export async function handleV2(core: SandboxCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const started = performance.now();
  const method = req.method ?? "GET";
  const match = V2_PATH.exec(url.pathname);
  const operation = match ? normaliseOperation(match[4]) : "(unknown)";

  const decision = core.faults.decide(operation);
  const finish = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (decision.action === "cutAfterAct") {
      // Carried out, but the answer never reaches the caller.
      req.socket.destroy();
      status = 0;
    }
    if (status !== 0) sendJson(res, status, body, headers);
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    core.store.recordRequest({ operation, method, status, at: new Date().toISOString(), durationMs });
    core.log(`${method} ${operation} -> ${status || "dropped"} (${durationMs} ms)`);
  };
  const fail = (error: ApiError) => finish(error.status, error.envelope(), error.headers);

  await core.faults.passGate();
  if (decision.latencyMs > 0) await delay(decision.latencyMs);
  if (decision.action === "drop") {
    req.socket.destroy();
    finish(0, undefined);
    return;
  }
  if (decision.action && decision.action !== "cutAfterAct") return fail(faultError(decision.action));

  if (method !== "GET" && method !== "POST") {
    return fail(new ApiError(405, [`The method ${method} is not allowed; use GET or POST.`], { Allow: "GET, POST" }));
  }
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (error) {
    if (error instanceof BodyError) return fail(new ApiError(error.status, [error.message]));
    throw error;
  }

  if (!match) return fail(new ApiError(404, ["The path must be /api/v2/{username}/{token}/json/<operation>/."]));
  const [, user, token, format] = match;
  const { username, token: expected } = core.credentials;
  if (safeDecode(user) !== username || safeDecode(token) !== expected) return fail(new ApiError(401, [AUTH_FAILED]));
  if (format !== "json") return fail(new ApiError(404, [`The response type ${format} is not available; use json.`]));
  const definition = OPERATIONS[operation];
  if (!definition) return fail(new ApiError(404, [`Unknown operation: ${operation}.`]));

  let params: Params;
  try {
    const fields = queryFields(url);
    for (const [key, value] of await parseBody(body, req.headers["content-type"])) fields.set(key, value);
    params = new Params(fields, definition.method === "POST" ? "POST" : "GET/POST");
  } catch (error) {
    if (error instanceof BodyError) return fail(new ApiError(error.status, [error.message]));
    throw error;
  }

  const store = core.store;
  let status: number;
  let responseBody: unknown;
  let headers: Record<string, string> = {};
  try {
    const result = definition.run({
      store,
      params,
      now: Date.now(),
      limits: { exportPerMinute: core.config.exportRateLimitPerMinute },
    });
    status = 200;
    responseBody = result instanceof RawJson ? result.body : okEnvelope(result);
  } catch (error) {
    const apiError =
      error instanceof ApiError ? error : new ApiError(500, ["The server encountered an unexpected error."]);
    if (!(error instanceof ApiError)) core.logError(`${operation} failed: ${error instanceof Error ? error.stack : String(error)}`);
    status = apiError.status;
    responseBody = apiError.envelope();
    headers = apiError.headers;
  }
  if (definition.ledger) {
    store.recordEvent({
      operation,
      at: new Date().toISOString(),
      params: Object.fromEntries(params.entries()),
      result: { status, body: responseBody },
    });
  }
  finish(status, responseBody, headers);
}
