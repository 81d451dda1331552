import { markConnectionBroken } from "../connection/connection-state.server";
import { shopConnection } from "../connection/shop-client.server";
import type { ReferralClient } from "../referral-api";
import { nowOf, type AdminContext } from "./admin-context";
import { notConnectedError, SETTINGS_ACTION, type MerchantError } from "./merchant-error";
import { ADMIN_TIMEOUT_MS, attempt } from "./service-errors.server";

export type ServiceAccess = { ok: true; client: ReferralClient } | { ok: false; error: MerchantError; notConnected: true };

export type ServiceResult<T> = { ok: true; value: T } | { ok: false; error: MerchantError; notConnected: boolean };

const brokenError = (reason: string | null): MerchantError => ({
  title: "Your referral service credentials need renewing",
  message: reason ?? "The service stopped accepting the saved credentials. Enter the current ones in Settings.",
  action: { ...SETTINGS_ACTION, content: "Update credentials" },
  retryable: false,
});

/** The referral client of a connected shop, built with the admin's short timeout. */
export async function serviceForShop(ctx: AdminContext, shop: string): Promise<ServiceAccess> {
  const connection = await shopConnection(ctx.db, shop, {
    credentialsKey: ctx.credentialsKey,
    timeoutMs: ctx.timeoutMs ?? ADMIN_TIMEOUT_MS,
    network: ctx.network,
    fetch: ctx.fetch,
  });
  if (connection.ok) return { ok: true, client: connection.client };
  switch (connection.problem) {
    case "not_connected":
      return { ok: false, error: notConnectedError(), notConnected: true };
    case "broken":
      return { ok: false, error: brokenError(connection.connectionError), notConnected: true };
    case "unreadable_token":
      return {
        ok: false,
        notConnected: true,
        error: brokenError("The saved API token can't be read any more (the app's encryption key changed). Enter the token again in Settings."),
      };
  }
}

/**
 * Calls the service for a shop. Refused credentials mark the connection
 * broken, as the job runner does, so every page points the merchant to Settings.
 */
export async function withService<T>(
  ctx: AdminContext,
  shop: string,
  call: (client: ReferralClient) => Promise<T>
): Promise<ServiceResult<T>> {
  const access = await serviceForShop(ctx, shop);
  if (!access.ok) return access;
  const result = await attempt(() => call(access.client), ctx.timeoutMs);
  if (result.ok) return result;
  if (result.cause.kind === "authentication") await markConnectionBroken(ctx.db, shop, result.error.message, nowOf(ctx));
  return { ok: false, error: result.error, notConnected: false };
}
