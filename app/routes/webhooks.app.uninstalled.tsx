import type { ActionFunctionArgs } from "@remix-run/node";
import { handleAppUninstalled } from "../wiring/uninstall.server";
import { authenticateUninstallWebhook } from "../wiring/authenticate-webhook.server";
import prisma from "../wiring/db.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, session, topic } = await authenticateUninstallWebhook(request);
  // The session may already be gone when Shopify retries this webhook; the
  // handler is idempotent either way.
  await handleAppUninstalled(prisma, { shop, hadSession: Boolean(session), topic });
  return new Response();
};
