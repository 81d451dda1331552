import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../wiring/db.server";
import { logger } from "../platform/logger/logger.server";
import { turnOffUngrantedFeatures } from "../domains/service-events/feature-scopes.server";
import { liveGrantedScopes } from "../platform/shopify-admin/access-scopes.server";
import { shopifyAdminForShop, NOT_INSTALLED } from "../wiring/admin-access.server";
import { authenticateWebhookAt } from "../wiring/authenticate-webhook.server";

/**
 * app/scopes_update: the merchant granted or revoked scopes. Its body names
 * the shop only by `shop_id`, which the app does not keep, and the shop
 * header is not signed: a signed body of any kind replayed here with another
 * shop's header must change nothing. So the body is only the cue; the scopes
 * are asked of Shopify for that shop with its own token, stored on its
 * offline session (the library's scope checks read it), and a feature whose
 * optional scopes are no longer granted is turned off (store credit payouts,
 * tagging, the share-link metafield): the Service events page then shows it
 * off, and turning it on asks for the scopes again.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticateWebhookAt(request, "app/scopes_update");
  const granted = await liveGrantedScopes(prisma, shopifyAdminForShop(prisma), shop);
  if (!granted.ok) {
    // Without the app installed there is nothing to keep in step. Otherwise Shopify is asked to deliver it again
    // (it retries a delivery not answered 2xx), by when the shop's token may be refreshed.
    if (granted.reason === NOT_INSTALLED) return new Response();
    logger.warn({ shop, reason: granted.reason }, "app/scopes_update: the granted scopes could not be asked of Shopify; answered 503 so that it is delivered again");
    return new Response("The granted scopes could not be confirmed with Shopify just now", { status: 503 });
  }
  const turnedOff = await turnOffUngrantedFeatures(prisma, shop, granted.scopes);
  if (turnedOff.length > 0) logger.info({ shop, turnedOff }, "features turned off: their optional scopes were revoked");
  return new Response();
};
