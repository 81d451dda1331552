import {
  readInboundEndpoint,
  receivingUrl,
  rotateInboundSecret,
  SECRET_OVERLAP_HOURS,
  type EndpointState,
} from "../../domains/service-events/endpoint.server";
import { nowOf, type AdminContext } from "./admin-context";
import type { RotateSecretResult, ServiceWebhookView } from "./service-webhook";

type WebhookContext = Pick<AdminContext, "db" | "credentialsKey" | "now" | "logger"> & { appUrl: string };

function viewOf(ctx: WebhookContext, endpoint: EndpointState): ServiceWebhookView {
  return {
    url: receivingUrl(ctx.appUrl, endpoint.endpointId),
    secretMadeAt: endpoint.secretMadeAt?.toISOString() ?? null,
    previousValidUntil: endpoint.previousValidUntil?.toISOString() ?? null,
    overlapHours: SECRET_OVERLAP_HOURS,
    newSecret: endpoint.newSecret,
    secretUnreadable: endpoint.secretUnreadable,
  };
}

/** The card's data; the endpoint is made on the first view, which alone gets the secret. */
export async function serviceWebhookView(ctx: WebhookContext, shop: string): Promise<ServiceWebhookView> {
  return viewOf(ctx, await readInboundEndpoint(ctx.db, shop, { credentialsKey: ctx.credentialsKey, now: () => nowOf(ctx) }));
}

/** The merchant's "Rotate secret" (authenticated by the route): a new secret, shown in this answer only. */
export async function rotateServiceWebhookSecret(ctx: WebhookContext, shop: string, fields: Record<string, unknown>): Promise<RotateSecretResult> {
  const endCurrentNow = fields.endCurrentNow ?? "false";
  if (endCurrentNow !== "true" && endCurrentNow !== "false") {
    return { ok: false, message: "That request could not be understood. Reload the page and try again." };
  }
  const rotated = await rotateInboundSecret(ctx.db, shop, {
    credentialsKey: ctx.credentialsKey,
    now: () => nowOf(ctx),
    endCurrentNow: endCurrentNow === "true",
  });
  if (!rotated.ok) {
    return { ok: false, message: "The secret was changed at the same moment, elsewhere. Reload the page and rotate again if you still need a new one." };
  }
  ctx.logger?.info({ shop, previousValidUntil: rotated.endpoint.previousValidUntil?.toISOString() ?? null }, "service webhook secret rotated");
  return { ok: true, webhook: viewOf(ctx, rotated.endpoint) };
}
