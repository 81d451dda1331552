import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { getEnv } from "../env.server";
import { logger } from "../logger.server";
import { receiveServiceWebhook } from "../service-events/receive.server";
import { SIGNATURE_HEADER } from "../service-events/signature.server";

// Public: the referral service posts its signed webhooks here. No Shopify
// auth; the per-shop secret is the credential. The event is stored and acted
// on from the queue, so the answer comes well within the service's 10 s.

const MAX_BODY_BYTES = 512 * 1024;

const MESSAGES = { 200: "OK", 400: "Malformed webhook", 401: "Signature missing or wrong", 404: "Unknown endpoint" } as const;

export const action = async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return new Response("Use POST", { status: 405, headers: { Allow: "POST" } });
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) return new Response("Too large", { status: 413 });
  const rawBody = await request.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES) return new Response("Too large", { status: 413 });
  const result = await receiveServiceWebhook(
    prisma,
    logger,
    { endpointId: params.endpointId ?? "", rawBody, signature: request.headers.get(SIGNATURE_HEADER) },
    { credentialsKey: getEnv().CREDENTIALS_KEY },
  );
  return new Response(MESSAGES[result.status], { status: result.status, headers: { "Content-Type": "text/plain" } });
};

export const loader = () => new Response("Use POST", { status: 405, headers: { Allow: "POST" } });
