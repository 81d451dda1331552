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
const MAX_PER_SHOP = 2_000;

interface Entry<T> {
  value: T;
  until: number;
}

export class CodeDirectory {
  private readonly codes = new Map<string, Map<string, Entry<Known>>>();
  private readonly profiles = new Map<string, Map<string, Entry<OwnerProfile | null>>>();

  constructor(private readonly now: () => number = Date.now) {}

  private get<T>(maps: Map<string, Map<string, Entry<T>>>, shop: string, key: string): T | undefined {
    const entry = maps.get(shop)?.get(key);
    if (!entry || entry.until < this.now()) return undefined;
    return entry.value;
  }

  private set<T>(maps: Map<string, Map<string, Entry<T>>>, shop: string, key: string, value: T): void {
    let map = maps.get(shop);
    if (!map) maps.set(shop, (map = new Map()));
    if (map.size >= MAX_PER_SHOP) map.delete(map.keys().next().value!);
    map.set(key, { value, until: this.now() + TTL_MS });
  }

  /** The owner of a short code, or null when the service has no such short code. */
  async shortCodeOwner(client: ReferralClient, shop: string, code: string): Promise<CodeOwner | null> {
    const key = code.toUpperCase();
    const known = this.get(this.codes, shop, key);
    if (known?.kind === "short_code") return known.owner;
    if (known) return null;
    try {
      const found = await client.getShortCode({ shortCode: code });
      if (!found.email) throw new Error(`shortcode/get answered no email for ${code}`);
      const owner = { email: found.email, uid: found.uid, valid: found.valid !== false };
      this.set(this.codes, shop, key, { kind: "short_code", owner });
      return owner;
    } catch (error) {
      if (!isReferralApiError(error) || error.kind !== "not_found") throw error;
      this.set(this.codes, shop, key, { kind: "not_short_code" });
      return null;
    }
  }

  /** The service refused the code as a coupon: it is the store's own. */
  rememberPromotion(shop: string, code: string): void {
    this.set(this.codes, shop, code.toUpperCase(), { kind: "promotion" });
  }

  isKnownPromotion(shop: string, code: string): boolean {
    return this.get(this.codes, shop, code.toUpperCase())?.kind === "promotion";
  }

  /** The owner's address and phone at the service (ambassador/get), or null when the service has no such person. */
  async ownerProfile(client: ReferralClient, shop: string, email: string): Promise<OwnerProfile | null> {
    const key = email.toLowerCase();
    const known = this.get(this.profiles, shop, key);
    if (known !== undefined) return known;
    let profile: OwnerProfile | null;
    try {
      const { ambassador } = await client.getAmbassador({ email });
      profile = { street: ambassador.street, zip: ambassador.zip, country: ambassador.country, phone: ambassador.phone, uid: ambassador.uid };
    } catch (error) {
      if (!isReferralApiError(error) || error.kind !== "not_found") throw error;
      profile = null;
    }
    this.set(this.profiles, shop, key, profile);
    return profile;
  }

  /** Forgets a shop's codes (its connection changed). */
  forget(shop: string): void {
    this.codes.delete(shop);
    this.profiles.delete(shop);
  }
}

declare global {
  var __referralBridgeCodes: CodeDirectory | undefined;
}

/** The process's directory. */
export function codeDirectory(): CodeDirectory {
  return (globalThis.__referralBridgeCodes ??= new CodeDirectory());
}
