import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { acknowledging } from "../jobs/acknowledgements";
import { logger } from "../logger.server";
import { acceptOrderWebhook } from "../referrals/order-webhooks.server";
import { authenticate } from "../shopify.server";

/**
 * The action of every order topic route: verify, store the job, answer.
 * A forged request never gets past authenticate.webhook (401).
 */
export function orderWebhookAction(args: ActionFunctionArgs): Promise<Response> {
  return acknowledging(() => acknowledgeOrderWebhook(args));
}

async function acknowledgeOrderWebhook({ request }: ActionFunctionArgs): Promise<Response> {
  const triggeredAt = request.headers.get("X-Shopify-Triggered-At");
  const { shop, topic, payload, session, webhookId } = await authenticate.webhook(request);
  const result = await acceptOrderWebhook(prisma, logger, {
    topic,
    shop,
    payload,
    webhookId: webhookId ?? null,
    triggeredAt: triggeredAt && !Number.isNaN(Date.parse(triggeredAt)) ? new Date(triggeredAt) : null,
    hasSession: Boolean(session),
  });
  if (result.outcome === "malformed") return new Response(`Malformed payload: ${result.detail}`, { status: 400 });
  return new Response(null, { status: 200 });
}
