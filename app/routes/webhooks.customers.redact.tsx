import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { getEnv } from "../env.server";
import { logger } from "../logger.server";
import { redactCustomer } from "../privacy/redact-customer.server";
import { authenticateComplianceWebhook } from "../webhooks/authenticate-webhook.server";
import { forgetShareLinks } from "../wiring/storefront-context.server";

// Works without a session (the shop may have uninstalled): the local rows are
// deleted here and the erasure at the service runs from the queue.
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId } = await authenticateComplianceWebhook(request, "customers/redact");
  const result = await redactCustomer(prisma, logger, { shop, payload, webhookId: webhookId ?? null }, { credentialsKey: getEnv().CREDENTIALS_KEY });
  // The storefront's cached share links of this customer go too.
  if (result.customerId) forgetShareLinks(shop, result.customerId);
  return new Response(null, { status: 200 });
};
