import { createTtlCache, type TtlCache } from "../cache/ttl-cache";
import { isReferralApiError, type ReferralClient } from "../referral-api";

// What the referral service knows of a code, learnt once per shop and kept
// for a while: whose short code it is (shortcode/get), or that it is none of
// the service's (a store promotion, learnt when event/record refused it as a
// coupon). The interface has no coupon lookup, so a coupon is known only by
// sending it. Kept in memory per process; the TTL lets a code that changes
// at the service be seen again.

export interface CodeOwner {
  email: string;
  uid: string | null;
  /** The service says the code can earn now (active campaign, active referrer). */
  valid: boolean;
}

export interface OwnerProfile {
  street: string | null;
  zip: string | null;
  country: string | null;
  phone: string | null;
  uid: string | null;
}

type Known =
  | { kind: "short_code"; owner: CodeOwner }
  | { kind: "not_short_code" }
  | { kind: "promotion" };

const TTL_MS = 10 * 60_000;
/** Across every shop: a code costs well under a kilobyte. */
const MAX_CODES = 50_000;
const MAX_PROFILES = 20_000;
const MAX_SHOPS = 5_000;

const keyOf = (shop: string, key: string) => `${shop}|${key}`;

export class CodeDirectory {
  private readonly codes: TtlCache<Known>;
  private readonly profiles: TtlCache<OwnerProfile | null>;
  /** Per shop, whether each campaign approves its commissions by itself (company/get). */
  private readonly approvals: TtlCache<Record<string, boolean>>;

  constructor(now?: () => number) {
    this.codes = createTtlCache<Known>({ ttlMs: TTL_MS, maxEntries: MAX_CODES, now });
    this.profiles = createTtlCache<OwnerProfile | null>({ ttlMs: TTL_MS, maxEntries: MAX_PROFILES, now });
    this.approvals = createTtlCache<Record<string, boolean>>({ ttlMs: TTL_MS, maxEntries: MAX_SHOPS, now });
  }

  /** The owner of a short code, or null when the service has no such short code. */
  async shortCodeOwner(client: ReferralClient, shop: string, code: string): Promise<CodeOwner | null> {
    const key = keyOf(shop, code.toUpperCase());
    const known = this.codes.peek(key);
    if (known?.kind === "short_code") return known.owner;
    if (known) return null;
    try {
      const found = await client.getShortCode({ shortCode: code });
      if (!found.email) throw new Error(`shortcode/get answered no email for ${code}`);
      const owner = { email: found.email, uid: found.uid, valid: found.valid !== false };
      this.codes.set(key, { kind: "short_code", owner });
      return owner;
    } catch (error) {
      if (!isReferralApiError(error) || error.kind !== "not_found") throw error;
      this.codes.set(key, { kind: "not_short_code" });
      return null;
    }
  }

  /** The service refused the code as a coupon: it is the store's own. */
  rememberPromotion(shop: string, code: string): void {
    this.codes.set(keyOf(shop, code.toUpperCase()), { kind: "promotion" });
  }

  isKnownPromotion(shop: string, code: string): boolean {
    return this.codes.peek(keyOf(shop, code.toUpperCase()))?.kind === "promotion";
  }

  /** The owner's address and phone at the service (ambassador/get), or null when the service has no such person. */
  async ownerProfile(client: ReferralClient, shop: string, email: string): Promise<OwnerProfile | null> {
    const key = keyOf(shop, email.toLowerCase());
    const known = this.profiles.peek(key);
    if (known !== undefined) return known;
    let profile: OwnerProfile | null;
    try {
      const { ambassador } = await client.getAmbassador({ email });
      profile = { street: ambassador.street, zip: ambassador.zip, country: ambassador.country, phone: ambassador.phone, uid: ambassador.uid };
    } catch (error) {
      if (!isReferralApiError(error) || error.kind !== "not_found") throw error;
      profile = null;
    }
    this.profiles.set(key, profile);
    return profile;
  }

  /** Whether the campaign approves its commissions by itself; false for a campaign the service no longer lists. */
  async campaignAutoApproves(client: ReferralClient, shop: string, campaignUid: string): Promise<boolean> {
    const known = await this.approvals.getOrLoad(shop, async () => {
      const { campaigns } = await client.getCompany();
      return Object.fromEntries(campaigns.map((c) => [c.campaignUid, c.autoApproveCommissions === true]));
    });
    return known[campaignUid] ?? false;
  }

  /** Forgets a shop's codes (its connection changed). */
  forget(shop: string): void {
    this.codes.deletePrefix(keyOf(shop, ""));
    this.profiles.deletePrefix(keyOf(shop, ""));
    this.approvals.delete(shop);
  }
}
