// In-memory data of the one company account the sandbox serves, with the indexes
// the operations look things up by. Every operation runs synchronously against it,
// so a single Node process needs no locking.

export type RewardType = "P" | "F" | "N" | "M" | "D";
export type Unit = "money" | "points";
export type AmbassadorStatus = "enrolled" | "prospect" | "banned" | "unsubscribed";
export type CommissionState = 0 | 1 | 2; // pending, approved, denied
export type EmailType =
  | "newAmbassador"
  | "pendingCommission"
  | "approvedCommission"
  | "deniedCommission"
  | "fulfilledPayout"
  | "deniedPayout";
export type PayoutStatus = "pending" | "paid" | "denied";

export const AMBASSADOR_STATUSES: readonly AmbassadorStatus[] = ["enrolled", "prospect", "banned", "unsubscribed"];
export const ADDRESS_FIELDS = ["street", "city", "state", "zip", "country", "phone"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export const CUSTOM_FIELDS = Array.from({ length: 10 }, (_, i) => `custom${i + 1}`);

export interface Reward {
  type: RewardType;
  amount: string;
}

export interface Company {
  name: string;
  url: string;
  email: string;
  pointName: string;
  outgoingEmail: string | null;
}

export interface Campaign {
  uid: string;
  name: string;
  description: string;
  initialReward: Reward;
  recurringReward: Reward;
  landingPage: string;
  requiredQueryParams?: string;
  sandbox: boolean;
  private: boolean;
  socialEnabled: boolean;
  autoApprove: boolean;
  discountValue: string;
  startMs: number;
  endMs: number | null;
  userMessage: string;
  companyMessage: string;
  subject: string;
  socialMessage: string;
  linkedinMessage?: string;
  twitterMessage?: string;
  productIds: string[];
}

export interface Group {
  id: string;
  name: string;
  description: string;
  isDefault: boolean;
}

export interface Ambassador {
  id: number;
  uid: string | null;
  email: string;
  firstName: string | null;
  lastName: string | null;
  createdMs: number;
  enrolledMs: number | null;
  unenrolledMs: number | null;
  status: AmbassadorStatus;
  active: boolean;
  sandbox: boolean;
  balanceCents: number;
  balancePoints: number;
  moneyPaidCents: number;
  pointsPaid: number;
  custom: Record<string, string | null>;
  groups: string[];
  address: Record<AddressField, string | null>;
  company: string | null;
  paypalEmail: string | null;
  /** campaign uid -> short code */
  shortCodes: Map<string, string>;
  /** Addresses seen in this person's events (ip_address), for compliance/export. */
  ipAddresses: string[];
}

export interface Commission {
  id: number;
  campaignUid: string;
  affiliateId: number;
  referringUid: string | null;
  customerAmbassadorId: number | null;
  customerEmail: string | null;
  customerUid: string | null;
  revenueCents: number;
  /** Hundredths of the unit: cents for money, points x 100 for points. */
  amountHundredths: number;
  unit: Unit;
  /** The reward rule the amount was computed from (kept to recompute on a revenue change). */
  reward: Reward | null;
  state: CommissionState;
  createdMs: number;
  approvedMs: number | null;
  transactionUid: string | null;
  sandbox: boolean;
  welcomeBonus: boolean;
  eventData: [string | null, string | null, string | null];
}

export interface Referral {
  campaignUid: string;
  referrerId: number;
  customerId: number;
  createdMs: number;
  channel: string | null;
}

export interface Click {
  id: number;
  ambassadorId: number;
  campaignUid: string;
  shortCode: string;
  channel: string;
  ip: string | null;
  referringUrl: string | null;
  createdMs: number;
}

export interface Share {
  id: number;
  ambassadorId: number;
  campaignUid: string;
  channel: string;
  createdMs: number;
}

export interface Payout {
  id: number;
  ambassadorId: number;
  amountHundredths: number;
  unit: Unit;
  paymentMethod: string;
  status: PayoutStatus;
  createdMs: number;
}

export interface EmailRecord {
  id: number;
  type: EmailType;
  recipient: string;
  subject: string;
  message: string;
  sentMs: number;
}

export interface Coupon {
  code: string;
  ambassadorId: number;
  campaignUid: string;
}

export interface LedgerEvent {
  operation: string;
  at: string;
  params: Record<string, string>;
  result: { status: number; body: unknown };
}

export interface LedgerRequest {
  operation: string;
  method: string;
  status: number;
  at: string;
  durationMs: number;
}

/** What domain code emits; the webhook dispatcher turns it into deliveries. */
export type EventSink = (eventType: string, eventData: Record<string, unknown>) => void;

export const LEDGER_LIMIT = 10_000;

export type IdKind = "ambassador" | "commission" | "click" | "share" | "payout" | "email";

export class Store {
  /** Where the sandbox listens; share URLs point here. */
  baseUrl = "http://127.0.0.1";
  company!: Company;
  campaigns = new Map<string, Campaign>();
  products = new Map<string, string>();
  groups = new Map<string, Group>();
  ambassadors = new Map<number, Ambassador>();
  commissions = new Map<number, Commission>();
  referrals = new Map<string, Referral>();
  coupons = new Map<string, Coupon>();
  clicks: Click[] = [];
  shares: Share[] = [];
  payouts: Payout[] = [];
  emails: EmailRecord[] = [];
  ssoTokens: string[] = [];
  exportCalls: number[] = [];
  ledgerEvents: LedgerEvent[] = [];
  ledgerRequests: LedgerRequest[] = [];

  private byEmail = new Map<string, number>();
  private byUid = new Map<string, number>();
  private byShortCode = new Map<string, { ambassadorId: number; campaignUid: string }>();
  private byTransaction = new Map<string, Commission[]>();
  private byAffiliate = new Map<number, Commission[]>();
  private referralsByReferrer = new Map<number, Referral[]>();
  private firstReferralOfCustomer = new Map<number, Referral>();
  private customersOfReferrer = new Map<number, Set<number>>();
  private ids: Record<IdKind, number> = { ambassador: 100, commission: 5000, click: 0, share: 0, payout: 9000, email: 0 };

  constructor(public emit: EventSink = () => {}) {}

  nextId(kind: IdKind): number {
    this.ids[kind] += 1;
    return this.ids[kind];
  }

  setIdFloor(kind: IdKind, value: number): void {
    this.ids[kind] = Math.max(this.ids[kind], value);
  }

  // Ambassadors ------------------------------------------------------------

  findByEmail(email: string): Ambassador | undefined {
    const id = this.byEmail.get(normaliseEmail(email));
    return id === undefined ? undefined : this.ambassadors.get(id);
  }

  findByUid(uid: string): Ambassador | undefined {
    const id = this.byUid.get(uid);
    return id === undefined ? undefined : this.ambassadors.get(id);
  }

  findByShortCode(code: string): { ambassador: Ambassador; campaignUid: string } | undefined {
    const entry = this.byShortCode.get(code.toUpperCase());
    const ambassador = entry && this.ambassadors.get(entry.ambassadorId);
    return ambassador && entry ? { ambassador, campaignUid: entry.campaignUid } : undefined;
  }

  findCoupon(code: string): { ambassador: Ambassador; coupon: Coupon } | undefined {
    const coupon = this.coupons.get(code.toUpperCase());
    const ambassador = coupon && this.ambassadors.get(coupon.ambassadorId);
    return ambassador && coupon ? { ambassador, coupon } : undefined;
  }

  insertAmbassador(ambassador: Ambassador): void {
    this.ambassadors.set(ambassador.id, ambassador);
    this.byEmail.set(ambassador.email, ambassador.id);
    if (ambassador.uid) this.byUid.set(ambassador.uid, ambassador.id);
    for (const [campaignUid, code] of ambassador.shortCodes) {
      this.byShortCode.set(code, { ambassadorId: ambassador.id, campaignUid });
    }
  }

  changeEmail(ambassador: Ambassador, email: string): void {
    this.byEmail.delete(ambassador.email);
    ambassador.email = normaliseEmail(email);
    this.byEmail.set(ambassador.email, ambassador.id);
  }

  changeUid(ambassador: Ambassador, uid: string | null): void {
    if (ambassador.uid) this.byUid.delete(ambassador.uid);
    ambassador.uid = uid;
    if (uid) this.byUid.set(uid, ambassador.id);
  }

  deleteAmbassador(ambassador: Ambassador): void {
    this.ambassadors.delete(ambassador.id);
    this.byEmail.delete(ambassador.email);
    if (ambassador.uid) this.byUid.delete(ambassador.uid);
    for (const code of ambassador.shortCodes.values()) this.byShortCode.delete(code);
    for (const [code, coupon] of this.coupons) if (coupon.ambassadorId === ambassador.id) this.coupons.delete(code);
  }

  isShortCodeTaken(code: string): boolean {
    return this.byShortCode.has(code.toUpperCase()) || this.coupons.has(code.toUpperCase());
  }

  // Commissions ------------------------------------------------------------

  insertCommission(commission: Commission): void {
    this.commissions.set(commission.id, commission);
    const earned = this.byAffiliate.get(commission.affiliateId) ?? [];
    earned.push(commission);
    this.byAffiliate.set(commission.affiliateId, earned);
    if (commission.transactionUid !== null) {
      const list = this.byTransaction.get(commission.transactionUid) ?? [];
      list.push(commission);
      this.byTransaction.set(commission.transactionUid, list);
    }
  }

  commissionsByTransaction(transactionUid: string): Commission[] {
    return this.byTransaction.get(transactionUid) ?? [];
  }

  commissionsOf(affiliateId: number): Commission[] {
    return this.byAffiliate.get(affiliateId) ?? [];
  }

  // Transactions (unique per campaign, also for events that earn nothing) ----

  private transactions = new Set<string>();

  hasTransaction(campaignUid: string, transactionUid: string): boolean {
    return this.transactions.has(`${campaignUid}\u0000${transactionUid}`);
  }

  addTransaction(campaignUid: string, transactionUid: string): void {
    this.transactions.add(`${campaignUid}\u0000${transactionUid}`);
  }

  // Referrals ----------------------------------------------------------------

  referralOf(campaignUid: string, customerId: number): Referral | undefined {
    return this.referrals.get(`${campaignUid}:${customerId}`);
  }

  addReferral(referral: Referral): void {
    this.referrals.set(`${referral.campaignUid}:${referral.customerId}`, referral);
    const made = this.referralsByReferrer.get(referral.referrerId) ?? [];
    made.push(referral);
    this.referralsByReferrer.set(referral.referrerId, made);
    if (!this.firstReferralOfCustomer.has(referral.customerId)) this.firstReferralOfCustomer.set(referral.customerId, referral);
    const customers = this.customersOfReferrer.get(referral.referrerId) ?? new Set<number>();
    customers.add(referral.customerId);
    this.customersOfReferrer.set(referral.referrerId, customers);
  }

  referralsBy(referrerId: number): Referral[] {
    return this.referralsByReferrer.get(referrerId) ?? [];
  }

  /** The first referral that brought this customer in (any campaign). */
  referralOfCustomer(customerId: number): Referral | undefined {
    return this.firstReferralOfCustomer.get(customerId);
  }

  uniqueReferrals(referrerId: number, campaignUid?: string): number {
    if (campaignUid === undefined) return this.customersOfReferrer.get(referrerId)?.size ?? 0;
    const customers = new Set<number>();
    for (const r of this.referralsBy(referrerId)) if (r.campaignUid === campaignUid) customers.add(r.customerId);
    return customers.size;
  }

  // Ledger -------------------------------------------------------------------

  recordEvent(event: LedgerEvent): void {
    this.ledgerEvents.push(event);
    if (this.ledgerEvents.length > LEDGER_LIMIT) this.ledgerEvents.shift();
  }

  recordRequest(request: LedgerRequest): void {
    this.ledgerRequests.push(request);
    if (this.ledgerRequests.length > LEDGER_LIMIT) this.ledgerRequests.shift();
  }
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());
}
