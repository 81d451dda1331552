import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import prisma from "../wiring/db.server";
import { logger } from "../platform/logger/logger.server";
import { turnOffUngrantedFeatures } from "../domains/service-events/feature-scopes.server";
import { authenticateWebhookAt } from "../wiring/authenticate-webhook.server";

/** app/scopes_update: the scopes the merchant granted now (`current`), after a change in either direction. */
const payloadSchema = z.object({ current: z.array(z.string().regex(/^[a-z_]+$/)) });

/**
 * Keeps the stored offline session's scope in step with what the merchant
 * granted (as Shopify's app template does), so the library's scope checks see
 * the real grant after a managed-install scope change. A feature whose
 * optional scopes the merchant revoked is turned off (store credit payouts,
 * tagging): the Service events page then shows it off, and turning it on
 * asks for the scopes again.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, session, payload } = await authenticateWebhookAt(request, "app/scopes_update");
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) {
    logger.warn({ shop }, "app/scopes_update without a readable current scope list; ignored");
    return new Response();
  }
  // From the shop alone: the session may be missing because its token could not be refreshed just now,
  // and a revoked scope must still turn its feature off (Shopify does not deliver this webhook again).
  await prisma.session.updateMany({ where: { shop, isOnline: false }, data: { scope: parsed.data.current.join(",") } });
  const turnedOff = await turnOffUngrantedFeatures(prisma, shop, parsed.data.current);
  if (turnedOff.length > 0) logger.info({ shop, turnedOff, withSession: Boolean(session) }, "features turned off: their optional scopes were revoked");
  return new Response();
};
