import { createTtlCache, type TtlCache } from "../../platform/cache/ttl-cache";
import { isReferralApiError, type ReferralClient } from "../../platform/referral-api";

// What the referral service knows of a code, learnt once per shop and kept
// for a while: whose short code it is (shortcode/get), or that it is none of
// the service's (a store promotion, learnt when event/record refused it as a
// coupon). The interface has no coupon lookup, so a coupon is known only by
// sending it. Kept in memory per process; the TTL lets a code that changes
// at the service be seen again, and what was learnt under one connection of
// a shop is forgotten when its jobs find it connected anew (useConnection).

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
/**
 * How long a shop's connection is remembered after its last job: longer
 * than anything learnt in that job lives, so that a connection forgotten
 * here has nothing left to forget.
 */
const CONNECTION_KEPT_MS = 6 * TTL_MS;
const MAX_SHOPS = 100_000;

const keyOf = (shop: string, key: string) => `${shop}|${key}`;

/** What the app uses of a campaign the service lists. */
interface CampaignFacts {
  autoApproves: boolean;
  /** Its recurring reward is not "none" (type D). */
  paysRecurring: boolean;
}

export class CodeDirectory {
  private readonly codes: TtlCache<Known>;
  private readonly profiles: TtlCache<OwnerProfile | null>;
  /** Per shop, what the app uses of each campaign (company/get). */
  private readonly approvals: TtlCache<Record<string, CampaignFacts>>;
  /** Each shop's connection, as its jobs last found it. */
  private readonly connections: TtlCache<string>;

  constructor(now?: () => number) {
    this.codes = createTtlCache<Known>({ ttlMs: TTL_MS, maxEntries: MAX_CODES, now });
    this.profiles = createTtlCache<OwnerProfile | null>({ ttlMs: TTL_MS, maxEntries: MAX_PROFILES, now });
    this.approvals = createTtlCache<Record<string, CampaignFacts>>({ ttlMs: TTL_MS, maxEntries: MAX_SHOPS, now });
    this.connections = createTtlCache<string>({ ttlMs: CONNECTION_KEPT_MS, maxEntries: MAX_SHOPS, now });
  }

  /**
   * The shop's connection as a job about to ask the service finds it (any
   * value that changes whenever the merchant saves credentials): what was
   * learnt under another one is forgotten. Told by every job rather than by
   * the page that saves the credentials, so that a worker in another
   * process forgets too.
   */
  useConnection(shop: string, connection: string): void {
    const before = this.connections.peek(shop);
    if (before !== undefined && before !== connection) this.forget(shop);
    this.connections.set(shop, connection);
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
    return (await this.campaignFacts(client, shop))[campaignUid]?.autoApproves ?? false;
  }

  /** Whether the campaign pays a recurring reward for a referred customer's later events; false for one it no longer lists. */
  async campaignPaysRecurring(client: ReferralClient, shop: string, campaignUid: string): Promise<boolean> {
    return (await this.campaignFacts(client, shop))[campaignUid]?.paysRecurring ?? false;
  }

  private campaignFacts(client: ReferralClient, shop: string): Promise<Record<string, CampaignFacts>> {
    return this.approvals.getOrLoad(shop, async () => {
      const { campaigns } = await client.getCompany();
      return Object.fromEntries(
        campaigns.map((c) => [
          c.campaignUid,
          { autoApproves: c.autoApproveCommissions === true, paysRecurring: c.recurringReward !== null && c.recurringReward.typeCode !== "D" },
        ]),
      );
    });
  }

  /** Forgets what the service said of a shop's codes, their owners and its campaigns (its connection changed). */
  forget(shop: string): void {
    this.codes.deletePrefix(keyOf(shop, ""));
    this.profiles.deletePrefix(keyOf(shop, ""));
    this.approvals.delete(shop);
  }
}
