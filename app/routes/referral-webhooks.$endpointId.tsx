import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../wiring/db.server";
import { credentialsKeys, getEnv } from "../wiring/env.server";
import { logger } from "../platform/logger/logger.server";
import { findInboundEndpoint } from "../domains/service-events/endpoint.server";
import { receiveServiceWebhook } from "../domains/service-events/receive.server";
import { SIGNATURE_HEADER } from "../domains/service-events/signature.server";
import { readBodyWithin, TOO_SLOW_TEXT, tooLarge, unreadAnswer, WEBHOOK_BODY_DEADLINE_MS } from "../platform/http/read-body";

// Public: the referral service posts its signed webhooks here. No Shopify
// auth; the per-shop secret is the credential. The event is stored and acted
// on from the queue, so the answer comes well within the service's 10 s.

/** A service event is a JSON object of a few hundred bytes to a few kilobytes. */
const MAX_BODY_BYTES = 64 * 1024;

const MESSAGES = { 200: "OK", 400: "Malformed webhook", 401: "Signature missing or wrong", 404: "Unknown endpoint", 503: "Endpoint secret unreadable; try again later" } as const;

export const action = async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return new Response("Use POST", { status: 405, headers: { Allow: "POST" } });
  const endpointId = params.endpointId ?? "";
  const options = { credentialsKey: credentialsKeys(getEnv()) };
  // Nothing is read for an endpoint nobody has, and for one that exists no more than the limit, nor for longer than the deadline.
  if (!(await findInboundEndpoint(prisma, endpointId, options))) return plain(404, { Connection: "close" });
  const reading = await readBodyWithin(request, MAX_BODY_BYTES, { deadlineMs: WEBHOOK_BODY_DEADLINE_MS });
  if (!reading.ok) return reading.status === 408 ? unreadAnswer(408, TOO_SLOW_TEXT) : tooLarge();
  const rawBody = reading.body.toString("utf8");
  const result = await receiveServiceWebhook(prisma, logger, { endpointId, rawBody, signature: request.headers.get(SIGNATURE_HEADER) }, options);
  return plain(result.status);
};

const plain = (status: keyof typeof MESSAGES, headers: Record<string, string> = {}) =>
  new Response(MESSAGES[status], { status, headers: { "Content-Type": "text/plain", ...headers } });

export const loader = () => new Response("Use POST", { status: 405, headers: { Allow: "POST" } });
