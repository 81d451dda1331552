import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../wiring/db.server";
import { logger } from "../platform/logger/logger.server";
import { acceptDataRequest } from "../domains/privacy/data-requests.server";
import { authenticateComplianceWebhook } from "../wiring/authenticate-webhook.server";

// A forged request never gets past authenticate.webhook (401). A real one is
// stored even for a shop the app no longer knows (no session): the report then
// says what little the app holds.
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId } = await authenticateComplianceWebhook(request, "customers/data_request");
  await acceptDataRequest(prisma, logger, { shop, payload, webhookId: webhookId ?? null });
  return new Response(null, { status: 200 });
};
