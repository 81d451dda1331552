import { markConnectionBroken } from "../../domains/connection/connection-state.server";
import { shopConnection } from "../../domains/connection/shop-client.server";
import type { ReferralClient } from "../../platform/referral-api";
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
  return callConnected(ctx, shop, access.client, call);
}

async function callConnected<T>(
  ctx: AdminContext,
  shop: string,
  client: ReferralClient,
  call: (client: ReferralClient) => Promise<T>
): Promise<ServiceResult<T>> {
  const result = await attempt(() => call(client), ctx.timeoutMs);
  if (result.ok) return result;
  if (result.cause.kind === "authentication") await markConnectionBroken(ctx.db, shop, result.error.message, nowOf(ctx));
  return { ok: false, error: result.error, notConnected: false };
}

/** How long a page's loader gives the service before the page is sent without its answer. */
export const SERVICE_GRACE_MS = 200;

/**
 * A page's service call: not possible (known at once, from the app's
 * database), or its answer: the answer itself when it came within the
 * grace, or the promise of it.
 */
export type DeferredService<T> =
  | { ok: false; error: MerchantError; notConnected: true }
  | { ok: true; answer: ServiceResult<T> | Promise<ServiceResult<T>> };

/**
 * withService for a page that paints before the service answers (Remix's
 * `defer`). Whether the shop is connected is read at once; the call starts
 * and is given `graceMs`. A quick answer comes back as it is, rendered with
 * the page, whole, so nothing moves; a slower one as its promise, which
 * streams to the page after its frame and local data have painted. The
 * answer never rejects for a service failure: the page shows it where the
 * data goes.
 */
export async function deferService<T>(
  ctx: AdminContext,
  shop: string,
  call: (client: ReferralClient) => Promise<T>,
  graceMs = SERVICE_GRACE_MS
): Promise<DeferredService<T>> {
  const access = await serviceForShop(ctx, shop);
  if (!access.ok) return access;
  const pending = callConnected(ctx, shop, access.client, call);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), graceMs);
  });
  // A rejection (a bug, not a service failure) reaches the page through `pending` either way.
  const first = await Promise.race([pending.then((answer) => ({ answer }), () => "late" as const), late]);
  clearTimeout(timer);
  return { ok: true, answer: first === "late" ? pending : first.answer };
}
