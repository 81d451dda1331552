import { Session } from "@shopify/shopify-api";
import { isSealed, openToken, sealToken, type SealContext, type CredentialsKey } from "../crypto/sealing.server";

// Shopify's tokens for a shop (the offline access token and, with expiring
// tokens, its refresh token) sealed at rest like the service token
// (docs/decisions/003, 015): this storage wraps the library's Prisma one and
// seals both on the way in, opens them on the way out, for the session's shop
// and column. A value in clear (a row from before, until the start-up
// re-seal reaches it) is read as it is; one the key cannot open is a missing
// session, so the merchant's next visit exchanges a new token.

/** The session storage the library is handed (structurally @shopify/shopify-app-session-storage's). */
export interface SessionStore {
  storeSession(session: Session): Promise<boolean>;
  loadSession(id: string): Promise<Session | undefined>;
  deleteSession(id: string): Promise<boolean>;
  deleteSessions(ids: string[]): Promise<boolean>;
  findSessionsByShop(shop: string): Promise<Session[]>;
}

export interface SealedSessionOptions {
  credentialsKey: CredentialsKey;
  /** A stored session whose tokens the key cannot open (the key changed, or the row was moved). */
  onUnreadable(sessionId: string, shop: string): void;
}

const place = (shop: string, column: SealContext["column"]): SealContext => ({ shop, column });

export class SealedSessionStorage implements SessionStore {
  constructor(
    private readonly inner: SessionStore,
    private readonly options: SealedSessionOptions,
  ) {}

  storeSession(session: Session): Promise<boolean> {
    const sealed = new Session(session.toObject());
    const key = this.options.credentialsKey;
    if (session.accessToken) sealed.accessToken = sealToken(session.accessToken, key, place(session.shop, "Session.accessToken"));
    if (session.refreshToken) sealed.refreshToken = sealToken(session.refreshToken, key, place(session.shop, "Session.refreshToken"));
    return this.inner.storeSession(sealed);
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const stored = await this.inner.loadSession(id);
    return stored ? this.opened(stored) : undefined;
  }

  deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    const stored = await this.inner.findSessionsByShop(shop);
    return stored.map((session) => this.opened(session)).filter((session): session is Session => session !== undefined);
  }

  private opened(stored: Session): Session | undefined {
    const session = new Session(stored.toObject());
    try {
      session.accessToken = this.open(stored.accessToken, place(stored.shop, "Session.accessToken"));
      session.refreshToken = this.open(stored.refreshToken, place(stored.shop, "Session.refreshToken"));
    } catch {
      this.options.onUnreadable(stored.id, stored.shop);
      return undefined;
    }
    return session;
  }

  private open(value: string | undefined, context: SealContext): string | undefined {
    return isSealed(value) ? openToken(value, this.options.credentialsKey, context) : value;
  }
}
