import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../wiring/db.server";
import { credentialsKeys, getEnv } from "../wiring/env.server";
import { logger } from "../platform/logger/logger.server";
import { acceptCustomerRedact } from "../domains/privacy/redact-customer.server";
import { authenticateComplianceWebhook } from "../wiring/authenticate-webhook.server";
import { forgetShareLinks } from "../wiring/storefront-context.server";

// Works without a session (the shop may have uninstalled). The request only
// stores the redaction as a job and answers: on a large shop the sweep of
// every row takes longer than Shopify waits. The job deletes the local rows
// and queues the erasure at the service.
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId } = await authenticateComplianceWebhook(request, "customers/redact");
  const accepted = await acceptCustomerRedact(prisma, logger, { shop, payload, webhookId: webhookId ?? null }, { credentialsKey: credentialsKeys(getEnv()) });
  // The storefront's cached share links of this customer go at once.
  if (accepted.customerId) forgetShareLinks(shop, accepted.customerId);
  return new Response(null, { status: 200 });
};
