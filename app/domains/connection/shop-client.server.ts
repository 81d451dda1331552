import type { PrismaClient, Shop } from "@prisma/client";
import { createReferralClient, type FetchLike, type ReferralClient, type ServiceNetworkPolicy } from "../../platform/referral-api";
import { openToken, type CredentialsKey } from "../../platform/crypto/sealing.server";
import { asModel, plainSql } from "../../platform/db/sql.server";

// The one builder of "the referral client of a shop": the admin pages and
// the jobs both go through it, so a missing, refused or unreadable token
// means the same thing everywhere.

export type ShopConnection =
  /** `shop`: the shop's row as it was read, for a caller that needs its settings too (one read, not two). */
  | { ok: true; client: ReferralClient; shop: Shop }
  | { ok: false; problem: "not_connected" }
  /** The service refused the saved credentials; `connectionError` says how, when it was recorded. */
  | { ok: false; problem: "broken"; connectionError: string | null }
  /** The saved token cannot be opened with this CREDENTIALS_KEY (the key changed). */
  | { ok: false; problem: "unreadable_token" };

export interface ShopClientOptions {
  credentialsKey: CredentialsKey;
  timeoutMs?: number;
  network?: ServiceNetworkPolicy;
  fetch?: FetchLike;
}

/** The referral client of a connected shop, or why there is none. */
export async function shopConnection(db: PrismaClient, shop: string, options: ShopClientOptions): Promise<ShopConnection> {
  // Read for every order a job sends: plain SQL, not Prisma's query compiler.
  const [found] = await plainSql(db).rows({ sql: `SELECT * FROM "Shop" WHERE "shop" = :shop`, values: { shop } });
  const row = found ? asModel<Shop>("Shop", found) : null;
  if (!row?.serviceBaseUrl || !row.serviceUsername || !row.serviceTokenSealed || row.connectionStatus === "not_connected") {
    return { ok: false, problem: "not_connected" };
  }
  if (row.connectionStatus === "broken") return { ok: false, problem: "broken", connectionError: row.connectionError };
  let token: string;
  try {
    token = openToken(row.serviceTokenSealed, options.credentialsKey, { shop, column: "Shop.serviceTokenSealed" });
  } catch {
    return { ok: false, problem: "unreadable_token" };
  }
  const client = createReferralClient({
    baseUrl: row.serviceBaseUrl,
    username: row.serviceUsername,
    token,
    timeoutMs: options.timeoutMs,
    network: options.network,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { ok: true, client, shop: row };
}

/**
 * Which saved connection a shop's row holds: the service, the account and
 * when its credentials were saved, which every save (connecting again,
 * another account, a new token) moves.
 */
export function connectionIdentity(row: Pick<Shop, "serviceBaseUrl" | "serviceUsername" | "connectionCheckedAt">): string {
  return JSON.stringify([row.serviceBaseUrl, row.serviceUsername, row.connectionCheckedAt?.getTime() ?? null]);
}

/** What a job is told when a shop has no client: the merchant's next step. */
export function noClientReason(connection: Exclude<ShopConnection, { ok: true }>): string {
  switch (connection.problem) {
    case "not_connected":
      return "The shop is not connected to the referral service yet (Settings).";
    case "broken":
      return connection.connectionError ?? "The shop's referral service credentials need to be renewed.";
    case "unreadable_token":
      return "The saved API token can't be read any more (the app's encryption key changed). Enter the token again in Settings.";
  }
}

/** A shop's client as a job asks for it. */
export type ShopClient = { ok: true; client: ReferralClient; shop?: Shop } | { ok: false; reason: string };

export async function shopClient(db: PrismaClient, shop: string, options: ShopClientOptions): Promise<ShopClient> {
  const connection = await shopConnection(db, shop, options);
  return connection.ok ? connection : { ok: false, reason: noClientReason(connection) };
}
