import type { PrismaClient } from "@prisma/client";
import type { Logger } from "../../platform/logger/logger.server";
import { readBodyWithin, TOO_SLOW_TEXT, tooLarge, unreadAnswer, WEBHOOK_BODY_DEADLINE_MS } from "../../platform/http/read-body";
import { checkSignaturePresent, signatureMatches } from "../../platform/http/verify-webhook";
import { acceptFlowAction } from "../../domains/flow-actions/accept.server";
import { parseFlowActionRequest } from "../../domains/flow-actions/flow-request";

// POST /flow/actions: Shopify Flow runs one of the app's actions
// (extensions/flow-action-*). Flow signs the raw body as webhooks are signed
// (X-Shopify-Hmac-Sha256: base64 HMAC-SHA256 with the app's secret). Flow
// treats a 2xx as done, retries a 429 or 5xx, and fails the step on another
// 4xx: so an unsigned or forged call is 401, a body that is not one of the
// app's actions 400, a shop without the app 404 (none of them retried), and
// a database that cannot store the run 503 (retried). A signed run is stored
// with its job and answered at once; the job does the work.

/** Flow's action bodies are a few hundred bytes. */
export const MAX_FLOW_ACTION_BYTES = 64 * 1024;

export interface FlowEndpointDeps {
  db: PrismaClient;
  secret: string;
  shopHasSession(shop: string): Promise<boolean>;
  logger: Logger;
}

const answer = (status: number, text: string) => new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function handleFlowActionRequest(request: Request, deps: FlowEndpointDeps): Promise<Response> {
  if (request.method !== "POST") return answer(405, "Flow actions are POST requests");
  const header = (name: string) => request.headers.get(name);
  const unsigned = checkSignaturePresent(header);
  if (unsigned) return unreadAnswer(401, "Unauthorized");
  const reading = await readBodyWithin(request, MAX_FLOW_ACTION_BYTES, { deadlineMs: WEBHOOK_BODY_DEADLINE_MS });
  if (!reading.ok) return reading.status === 408 ? unreadAnswer(408, TOO_SLOW_TEXT) : tooLarge();
  if (!signatureMatches(reading.body, header("X-Shopify-Hmac-Sha256")!, deps.secret)) {
    deps.logger.warn({ bytes: reading.body.length }, "flow action refused: the signature does not match");
    return answer(401, "Unauthorized");
  }
  let body: unknown;
  try {
    body = JSON.parse(reading.body.toString("utf8"));
  } catch {
    return answer(400, "The body is not JSON");
  }
  const parsed = parseFlowActionRequest(body);
  if (!parsed) return answer(400, "Not one of the app's Flow actions with its fields");
  try {
    if (!(await deps.shopHasSession(parsed.shop))) return answer(404, "The app is not installed on this shop");
    const result = await acceptFlowAction(deps.db, parsed);
    deps.logger.info({ shop: parsed.shop, actionRunId: parsed.actionRunId, handle: parsed.action.handle, result }, "flow action received");
  } catch (error) {
    deps.logger.error({ shop: parsed.shop, err: error }, "flow action not stored");
    return answer(503, "Try again later");
  }
  return answer(200, "OK");
}
