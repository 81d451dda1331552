// A local stand-in for a shop's OAuth token endpoint (POST
// /admin/oauth/access_token), served beside the Admin API stand-in. It
// answers the three grants the app's library sends, as Shopify's reference
// describes them:
// - token exchange of a session token (id_token, HS256 with the app's secret,
//   its audience the app's client id) for an offline access token, expiring
//   (60 minutes, with a refresh token good for 90 days) when asked with
//   `expiring: "1"`;
// - a refresh: a new access token and a new refresh token; the refresh token
//   used stays good until its replacement is used (Shopify's "more resilient
//   refreshes"), then it is retired;
// - the migration of a non-expiring offline token to an expiring pair, after
//   which the non-expiring token no longer opens the Admin API.
// The Admin API stand-in asks `check` whether a call's access token opens it.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
const OFFLINE_TOKEN = "urn:shopify:params:oauth:token-type:offline-access-token";

export interface TokenCall {
  grant: "token_exchange" | "refresh_token" | "migrate" | "invalid";
  outcome: "issued" | "refused";
  /** What Shopify's error body said, when refused. */
  error?: string;
}

interface AccessToken {
  expiresAt: number | null;
  retired: boolean;
}

interface RefreshToken {
  expiresAt: number;
  /** The refresh token this one replaced, retired when this one is first used. */
  replaces: string | null;
  retired: boolean;
}

export class StandInTokens {
  /** Seconds an expiring access token lives (Shopify: 3600). */
  accessTokenSeconds = 3_600;
  refreshTokenSeconds = 90 * 24 * 3_600;
  /** Only tokens this endpoint issued (or `acceptNonExpiring` named) open the Admin API; off, any token does (the older tests' own). */
  strict = false;
  calls: TokenCall[] = [];
  private access = new Map<string, AccessToken>();
  private refresh = new Map<string, RefreshToken>();

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly scope: string,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A non-expiring offline token the shop holds from before (an install made before expiring tokens). */
  acceptNonExpiring(token: string): void {
    this.access.set(token, { expiresAt: null, retired: false });
  }

  /** Makes an issued access token expired now, as an hour's wait would. */
  expire(token: string): void {
    const known = this.access.get(token);
    if (known) known.expiresAt = this.now() - 1_000;
  }

  /** The merchant uninstalled the app: Shopify revokes every token it issued before app/uninstalled is sent. */
  revokeAll(): void {
    for (const token of this.access.values()) token.retired = true;
    for (const token of this.refresh.values()) token.retired = true;
  }

  /** Whether an access token opens the Admin API. */
  check(token: string | undefined): "ok" | "expired" | "unknown" {
    if (!token) return "unknown";
    const known = this.access.get(token);
    if (!known) return this.strict ? "unknown" : "ok";
    if (known.retired) return "unknown";
    if (known.expiresAt !== null && known.expiresAt <= this.now()) return "expired";
    return "ok";
  }

  issuedAccessTokens(): string[] {
    return [...this.access.entries()].filter(([, t]) => t.expiresAt !== null).map(([token]) => token);
  }

  /** The answer to one POST /admin/oauth/access_token, as status and JSON body. */
  answer(shop: string, body: Record<string, unknown>): { status: number; body: Record<string, unknown> } {
    const refuse = (grant: TokenCall["grant"], status: number, error: string) => {
      this.calls.push({ grant, outcome: "refused", error });
      return { status, body: { error, error_description: `The request was refused: ${error}` } };
    };
    if (body.client_id !== this.clientId || body.client_secret !== this.clientSecret) return refuse("invalid", 401, "invalid_client");

    if (body.grant_type === "refresh_token") {
      const used = typeof body.refresh_token === "string" ? this.refresh.get(body.refresh_token) : undefined;
      if (!used || used.retired || used.expiresAt <= this.now()) return refuse("refresh_token", 400, "invalid_grant");
      // Using a replacement retires the refresh token it replaced.
      if (used.replaces) this.refresh.get(used.replaces)!.retired = true;
      return this.issue("refresh_token", body.refresh_token as string, true);
    }

    if (body.grant_type === TOKEN_EXCHANGE && body.subject_token_type === ID_TOKEN) {
      if (!this.validSessionToken(String(body.subject_token ?? ""), shop)) return refuse("token_exchange", 400, "invalid_subject_token");
      if (body.requested_token_type !== OFFLINE_TOKEN) return refuse("token_exchange", 400, "unsupported_token_type");
      return this.issue("token_exchange", null, body.expiring === "1");
    }

    if (body.grant_type === TOKEN_EXCHANGE && body.subject_token_type === OFFLINE_TOKEN) {
      const old = typeof body.subject_token === "string" ? this.access.get(body.subject_token) : undefined;
      if (!old || old.retired || old.expiresAt !== null) return refuse("migrate", 400, "invalid_subject_token");
      old.retired = true;
      return this.issue("migrate", null, true);
    }
    return refuse("invalid", 400, "unsupported_grant_type");
  }

  private issue(grant: TokenCall["grant"], replaces: string | null, expiring: boolean) {
    const accessToken = `shpat_${randomBytes(16).toString("hex")}`;
    this.access.set(accessToken, { expiresAt: expiring ? this.now() + this.accessTokenSeconds * 1_000 : null, retired: false });
    this.calls.push({ grant, outcome: "issued" });
    if (!expiring) return { status: 200, body: { access_token: accessToken, scope: this.scope } };
    const refreshToken = `shprt_${randomBytes(16).toString("hex")}`;
    this.refresh.set(refreshToken, { expiresAt: this.now() + this.refreshTokenSeconds * 1_000, replaces, retired: false });
    return {
      status: 200,
      body: { access_token: accessToken, scope: this.scope, expires_in: this.accessTokenSeconds, refresh_token: refreshToken, refresh_token_expires_in: this.refreshTokenSeconds },
    };
  }

  /** An admin session token: HS256 with the app's secret, for this app (aud) and this shop (dest), not expired. */
  private validSessionToken(token: string, shop: string): boolean {
    const [header, payload, signature] = token.split(".");
    if (!header || !payload || !signature) return false;
    const expected = createHmac("sha256", this.clientSecret).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { aud?: string; dest?: string; exp?: number };
    if (JSON.parse(Buffer.from(header, "base64url").toString("utf8")).alg !== "HS256") return false;
    return claims.aud === this.clientId && claims.dest === `https://${shop}` && typeof claims.exp === "number" && claims.exp * 1_000 > this.now();
  }
}
