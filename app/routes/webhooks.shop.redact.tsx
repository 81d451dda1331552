import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../wiring/db.server";
import { logger } from "../platform/logger/logger.server";
import { redactShop } from "../domains/privacy/redact-shop.server";
import { authenticateComplianceWebhook } from "../wiring/authenticate-webhook.server";
import { forgetShareLinks } from "../wiring/storefront-context.server";

// Arrives 48 hours after uninstall, so there is never a session; an unknown
// shop simply has nothing to delete.
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId } = await authenticateComplianceWebhook(request, "shop/redact");
  await redactShop(prisma, logger, { shop, webhookId: webhookId ?? null });
  forgetShareLinks(shop);
  return new Response(null, { status: 200 });
};
