import { z } from "zod";
import { forgetConnection, saveConnection, markConnectionBroken, type ConnectionStatus } from "../../domains/connection/connection-state.server";
import { pauseShopJobs, resumeShopJobs } from "../../platform/queue/shop-jobs.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import {
  ADDRESS_REFUSED,
  type AddressProblem,
  checkServiceBaseUrl,
  createReferralClient,
  isReferralApiError,
  type ReferralApiError,
  SERVICE_REDIRECT,
  STRICT_NETWORK,
} from "../../platform/referral-api";
import { openToken, sealToken } from "../../platform/crypto/sealing.server";
import { nowOf, type AdminContext } from "./admin-context";
import { fieldErrorsOf } from "./form-data";
import type { MerchantError } from "./merchant-error";
import { ADMIN_TIMEOUT_MS } from "./service-errors.server";
import { enqueueShopOfferSyncs } from "../../domains/offers/enqueue-offer.server";
import { DEFAULT_RECONCILE_INTERVAL_MS } from "../../domains/order-sync/job-kinds";
import { scheduleReconcile } from "../../domains/order-sync/reconcile.server";
import { retireInboundSecrets } from "../../domains/service-events";

export type { ConnectionStatus } from "../../domains/connection/connection-state.server";

/** What the page may know about the connection: never the token itself. */
export interface ConnectionView {
  status: ConnectionStatus;
  companyName: string | null;
  baseUrl: string | null;
  username: string | null;
  hasToken: boolean;
  error: string | null;
  checkedAt: string | null;
}

const STATUSES: readonly ConnectionStatus[] = ["not_connected", "connected", "broken"];

export async function readConnection(ctx: Pick<AdminContext, "db">, shop: string): Promise<ConnectionView> {
  const row = await ctx.db.shop.findUnique({ where: { shop } });
  const status = STATUSES.find((s) => s === row?.connectionStatus) ?? "not_connected";
  return {
    status,
    companyName: row?.companyName ?? null,
    baseUrl: row?.serviceBaseUrl ?? null,
    username: row?.serviceUsername ?? null,
    hasToken: Boolean(row?.serviceTokenSealed),
    error: row?.connectionError ?? null,
    checkedAt: row?.connectionCheckedAt?.toISOString() ?? null,
  };
}

function urlOrNull(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

export const connectionFormSchema = z.object({
  username: z.string().trim().min(1, "Enter your API username.").max(200, "The username is too long."),
  /** Empty keeps the stored token, for the stored address and username only. */
  token: z.string().trim().max(500, "The token is too long.").default(""),
  baseUrl: z
    .string()
    .trim()
    .min(1, "Enter the service's base URL, for example https://api.example.com.")
    .pipe(z.url({ protocol: /^https?$/, message: "Enter a full web address starting with https://." }))
    .refine((url) => !/\/api\/v2(\/|$)/i.test(urlOrNull(url)?.pathname ?? ""), {
      message: "Enter only the address before /api/v2/, for example https://api.example.com.",
    })
    .refine(
      (url) => {
        const u = urlOrNull(url);
        return !u || (!u.username && !u.password && !u.search);
      },
      {
        message: "Enter the address without a user name, password or ?query.",
      }
    )
    .refine((url) => !url.includes("#"), { message: "Enter the address without a #fragment." })
    .transform((url) => url.replace(/\/+$/, "")),
});

export type ConnectionField = keyof z.infer<typeof connectionFormSchema>;

export type ConnectResult =
  | { ok: true; companyName: string; campaignCount: number; resumedJobs: number }
  | { ok: false; fieldErrors: Partial<Record<ConnectionField, string>>; error?: MerchantError };

const ADDRESS_WORDS: Record<AddressProblem, string> = {
  not_a_url: "Enter a full web address starting with https://.",
  scheme: "Enter an address starting with https://.",
  credentials: "Enter the address without a user name, password or ?query.",
  query_or_fragment: "Enter the address without a ?query or #fragment.",
  private_address: "Enter the service's public address: private, local and cloud metadata addresses aren't allowed.",
  loopback: "Enter the service's public address: addresses on this server aren't allowed.",
};

/** A blank token with a new address or username: the saved token is not sent there. */
const TOKEN_AGAIN =
  "Enter the API token again: the saved token is only sent to the base URL and username it was saved with, and you changed one of them.";

const networkCode = (error: ReferralApiError): unknown => (error.cause as { code?: unknown } | undefined)?.code;

/**
 * What a failed check means, in the app's own words: nothing the remote
 * server sent is shown, so the check cannot be used to read other servers.
 */
function checkFailure(error: ReferralApiError, baseUrl: string, timeoutMs: number): ConnectResult {
  const host = new URL(baseUrl).host;
  const fail = (title: string, message: string, field?: [ConnectionField, string]): ConnectResult => ({
    ok: false,
    fieldErrors: field ? { [field[0]]: field[1] } : {},
    error: { title, message, retryable: error.retryable },
  });
  if (error.kind === "network" && networkCode(error) === ADDRESS_REFUSED) {
    return fail("This address isn't allowed", `${host} leads to a private, local or cloud metadata address. Enter the service's public https address.`, [
      "baseUrl",
      ADDRESS_WORDS.private_address,
    ]);
  }
  if (error.kind === "network" && networkCode(error) === SERVICE_REDIRECT) {
    return fail("This address redirects elsewhere", `${host} answered with a redirect. Enter the address the service's documentation gives, exactly.`, [
      "baseUrl",
      "This address redirects; enter the final address.",
    ]);
  }
  switch (error.kind) {
    case "authentication":
      return fail(
        "Wrong username or API token",
        "The referral service didn't accept this username and token. Copy both again from your referral program account (API settings) and check for extra spaces.",
        ["token", "Check the token and the username."]
      );
    case "network":
      return fail(
        "Can't reach the referral service",
        `Nothing answered at ${host}. Check the base URL for typos and that the service is online.`,
        ["baseUrl", "Nothing answered at this address."]
      );
    case "timeout":
      return fail(
        "The referral service is too slow",
        `${host} didn't answer within ${Math.round(
          timeoutMs / 1000
        )} seconds. The service may be busy; try again in a minute. Your previous settings are unchanged.`
      );
    case "not_found":
      return fail(
        "This address isn't a referral service",
        `${host} answered, but has no referral service interface there (HTTP 404). Check the base URL.`,
        ["baseUrl", "No referral service at this address."]
      );
    case "rate_limited":
      return fail("Too many attempts", "The referral service asked us to slow down. Wait a minute, then try again.");
    case "server":
      return fail(
        "The referral service had a problem",
        `${host} answered with an error on its side. Try again in a few minutes; if it keeps happening, contact the service's support.`
      );
    default:
      return fail("The referral service didn't accept the check", "Check the username, token and base URL, then try again.");
  }
}

/**
 * Checks credentials live with company/get and, when they work, stores them
 * (the token sealed), marks the shop connected and lets its held jobs run.
 * A failed check changes nothing that was stored.
 */
export async function connectShop(ctx: AdminContext, shop: string, input: unknown): Promise<ConnectResult> {
  const parsed = connectionFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrorsOf(parsed.error.issues) };
  const { username, baseUrl } = parsed.data;
  const address = checkServiceBaseUrl(baseUrl, ctx.network ?? STRICT_NETWORK);
  if (!address.ok) return { ok: false, fieldErrors: { baseUrl: ADDRESS_WORDS[address.problem] } };

  let token = parsed.data.token;
  const stored = await ctx.db.shop.findUnique({ where: { shop } });
  if (!token) {
    if (!stored?.serviceTokenSealed) return { ok: false, fieldErrors: { token: "Enter your API token." } };
    // The token travels in the URL path: the stored one is sent only to the address, and for the username, it was saved with.
    if (stored.serviceBaseUrl !== baseUrl || stored.serviceUsername !== username) {
      return { ok: false, fieldErrors: { token: TOKEN_AGAIN } };
    }
    try {
      token = openToken(stored.serviceTokenSealed, ctx.credentialsKey, { shop, column: "Shop.serviceTokenSealed" });
    } catch {
      return { ok: false, fieldErrors: { token: "The saved token can't be read any more. Enter it again." } };
    }
  }

  const timeoutMs = ctx.timeoutMs ?? ADMIN_TIMEOUT_MS;
  const client = createReferralClient({ baseUrl, username, token, timeoutMs, network: ctx.network, ...(ctx.fetch ? { fetch: ctx.fetch } : {}) });
  let company;
  try {
    company = await client.getCompany();
  } catch (error) {
    if (!isReferralApiError(error)) throw error;
    // A blank token is the stored one, at the stored address and for the stored username (checked above).
    const storedCredentials = !parsed.data.token;
    if (error.kind === "authentication" && storedCredentials) {
      await markConnectionBroken(ctx.db, shop, "The referral service stopped accepting the saved credentials. Enter the current ones.", nowOf(ctx));
    }
    // The host only: the token travels in the service's URL path.
    ctx.logger?.warn({ shop, host: new URL(baseUrl).host, kind: error.kind }, "referral service connection check failed");
    return checkFailure(error, baseUrl, timeoutMs);
  }

  const companyName = company.company.companyName ?? new URL(baseUrl).host;
  const tokenSealed = sealToken(token, ctx.credentialsKey, { shop, column: "Shop.serviceTokenSealed" });
  await saveConnection(ctx.db, shop, { baseUrl, username, tokenSealed, companyName }, nowOf(ctx));
  const resumedJobs = await resumeShopJobs(ctx.db, shop);
  // The program's ambassadors may have changed while it was not connected: the friend's offers catch up now.
  const offerSyncs = await enqueueShopOfferSyncs(ctx.db, shop);
  // Reconciliation with Shopify's orders runs from now on, every few minutes.
  await scheduleReconcile(ctx.db, shop, nowOf(ctx), ctx.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS);
  if (resumedJobs > 0 || offerSyncs > 0) notifyJobEnqueued();
  ctx.logger?.info({ shop, host: new URL(baseUrl).host, resumedJobs, offerSyncs }, "referral service connected");
  return { ok: true, companyName, campaignCount: company.campaigns.length, resumedJobs };
}

/** Why a job waits after the merchant disconnected: connecting again sends it. */
export const DISCONNECTED_REASON = "Waiting: the referral service was disconnected. Connect it again in Settings to send this.";

export type DisconnectResult = { ok: true; pausedJobs: number } | { ok: false; fieldErrors: { form: string } };

/**
 * The merchant disconnects the referral service: the token is forgotten, the
 * service's webhook secret retired (retireInboundSecrets), and the shop's waiting jobs that call the service are held (paused, not
 * failed), in one transaction; connectShop lets them run again. A job
 * already running finishes its attempt; if it must try again it finds no
 * connection and waits like the others.
 */
export async function disconnectShop(ctx: AdminContext, shop: string): Promise<DisconnectResult> {
  const row = await ctx.db.shop.findUnique({ where: { shop }, select: { connectionStatus: true, serviceTokenSealed: true } });
  if (!row || (row.connectionStatus === "not_connected" && !row.serviceTokenSealed)) {
    return { ok: false, fieldErrors: { form: "The referral service is not connected." } };
  }
  const pausedJobs = await ctx.db.$transaction(async (tx) => {
    await forgetConnection(tx, shop, nowOf(ctx));
    await retireInboundSecrets(tx, shop);
    // Without the registry's list every waiting job is held: none is lost, and connecting again resumes them all.
    return pauseShopJobs(tx, shop, DISCONNECTED_REASON, { only: ctx.serviceJobKinds });
  });
  ctx.logger?.info({ shop, pausedJobs }, "referral service disconnected");
  return { ok: true, pausedJobs };
}
