// The demo company every sandbox starts with (and returns to on reset).
// Tests and the demo import these ids; change them only together with their users.
//
// Short codes are deterministic: <NAME><SUFFIX> with the suffix per campaign
//   1001 -> "10", 1002 -> "VIP", 1003 -> "PTS", 1004 -> "TEST", 1005 -> "SPRING"
// e.g. alice -> ALICE10, ALICEVIP, ALICEPTS, ALICETEST. Ambassadors created later get
// generated codes (uppercase letters and digits, unique).

import type { Ambassador, AmbassadorStatus, Campaign, Commission, Store } from "./state";
import { ADDRESS_FIELDS, CUSTOM_FIELDS } from "./state";
import { parseCents } from "./money";

const at = (iso: string) => Date.parse(iso);

export const SEED = {
  credentials: {
    username: "demo",
    token: "demo-token",
    /** Password for the token-header interface's api-key operation. */
    password: "demo-password",
    apiKey: "demo-api-key",
  },
  company: {
    company_name: "Demo Outfitters",
    company_url: "https://demo-outfitters.example",
    company_email: "team@demo-outfitters.example",
    point_name: "points",
    outgoing_email: null,
  },
  campaigns: {
    friendsAndFamily: "1001",
    vip: "1002",
    points: "1003",
    test: "1004",
    /** Ended campaign: not in company/get, rejected by event/record. */
    expired: "1005",
  },
  /** product_id -> campaign_uid (event/record accepts product_id instead of campaign_uid). */
  products: { "501": "1001", "502": "1002", "503": "1003", "504": "1004", "505": "1005" },
  groups: { customers: "1", vip: "2" },
  ambassadors: {
    alice: {
      email: "alice@example.com",
      uid: "amb-alice",
      first_name: "Alice",
      last_name: "Archer",
      shortCodes: { "1001": "ALICE10", "1002": "ALICEVIP", "1003": "ALICEPTS", "1004": "ALICETEST", "1005": "ALICESPRING" },
    },
    bob: {
      email: "bob@example.com",
      uid: "amb-bob",
      first_name: "Bob",
      last_name: "Baker",
      shortCodes: { "1001": "BOB10", "1002": "BOBVIP", "1003": "BOBPTS", "1004": "BOBTEST", "1005": "BOBSPRING" },
    },
    carol: {
      email: "carol@example.com",
      uid: "amb-carol",
      first_name: "Carol",
      last_name: "Chen",
      shortCodes: { "1001": "CAROL10", "1002": "CAROLVIP", "1003": "CAROLPTS", "1004": "CAROLTEST", "1005": "CAROLSPRING" },
    },
  },
  /** Customers referred in the seeded history (also ambassadors, as the service auto-creates them). */
  customers: {
    dan: { email: "dan@example.com", first_name: "Dan", last_name: "Diaz" },
    erin: { email: "erin@example.com", first_name: "Erin", last_name: "Evans" },
    frank: { email: "frank@example.com", first_name: "Frank", last_name: "Fox" },
    gina: { email: "gina@example.com", first_name: "Gina", last_name: "Gray" },
  },
  /** Coupon (discount) codes that identify a referrer, all in campaign 1001. */
  coupons: { "ALICE-15": "alice@example.com", BOBFRIEND: "bob@example.com" },
  commissions: {
    /** alice <- dan, 1001, revenue 120.00 x 10% = 12.00, approved */
    aliceApproved: { commission_uid: "5001", transaction_uid: "seed-order-1", revenue: "120.00", amount: "12.00" },
    /** bob <- erin, 1001, revenue 80.00 x 10% = 8.00, pending */
    bobPending: { commission_uid: "5002", transaction_uid: "seed-order-2", revenue: "80.00", amount: "8.00" },
    /** alice <- frank, 1001, revenue 45.55 x 10% = 4.5550 -> 4.56, denied */
    aliceDenied: { commission_uid: "5003", transaction_uid: "seed-order-3", revenue: "45.55", amount: "4.56" },
    /** bob, 1002 welcome bonus, flat 15.00, approved, no referred customer */
    bobWelcomeBonus: { commission_uid: "5004", transaction_uid: null, revenue: "0.00", amount: "15.00" },
    /** alice <- gina, 1003, flat 50 points, pending */
    alicePointsPending: { commission_uid: "5005", transaction_uid: "seed-order-4", revenue: "60.00", amount: "50.00" },
  },
  /** Balances that follow from the approved commissions above. */
  balances: {
    "alice@example.com": { balance_money: "12.00", balance_points: "0" },
    "bob@example.com": { balance_money: "15.00", balance_points: "0" },
  },
  /** The token-header interface's companies resource (the account manages these). */
  tokenApiCompanies: [
    { id: 1, name: "Demo Outfitters", url: "https://demo-outfitters.example", email: "team@demo-outfitters.example" },
    { id: 2, name: "Demo Outfitters Outlet", url: "https://outlet.demo-outfitters.example", email: "outlet@demo-outfitters.example" },
    { id: 3, name: "Northwind Gear", url: "https://northwind-gear.example", email: "hello@northwind-gear.example" },
    { id: 4, name: "Summit Supply Co", url: "https://summit-supply.example", email: "team@summit-supply.example" },
    { id: 5, name: "Trailhead Apparel", url: "https://trailhead-apparel.example", email: "info@trailhead-apparel.example" },
  ],
} as const;

export const CAMPAIGN_CODE_SUFFIX: Record<string, string> = {
  "1001": "10",
  "1002": "VIP",
  "1003": "PTS",
  "1004": "TEST",
  "1005": "SPRING",
};

const messages = (name: string) => ({
  userMessage: `Share ${name} with your friends.`,
  companyMessage: `Thanks for spreading the word about Demo Outfitters!`,
  subject: `A gift from a friend at Demo Outfitters`,
  socialMessage: `I love Demo Outfitters. Use my link for a discount!`,
});

function campaigns(): Campaign[] {
  const base = { endMs: null, startMs: at("2024-01-01T00:00:00Z") };
  return [
    {
      ...base,
      ...messages("Friends & Family"),
      uid: "1001",
      name: "Friends & Family",
      description: "Friends get 10% off; you earn 10% of their first order and 5% of later ones.",
      initialReward: { type: "P", amount: "10" },
      recurringReward: { type: "P", amount: "5" },
      landingPage: "https://demo-outfitters.example/",
      requiredQueryParams: "mbsy={short_code}&campaignid={campaign_uid}",
      sandbox: false,
      private: false,
      socialEnabled: true,
      autoApprove: false,
      discountValue: "10",
      linkedinMessage: "Demo Outfitters makes great outdoor gear. Here is 10% off.",
      twitterMessage: "Gear up with 10% off at Demo Outfitters",
      productIds: ["501"],
    },
    {
      ...base,
      ...messages("VIP Flat Reward"),
      uid: "1002",
      name: "VIP Flat Reward",
      description: "Invitation-only: 15.00 for every referred order.",
      initialReward: { type: "F", amount: "15.00" },
      recurringReward: { type: "D", amount: "0" },
      landingPage: "https://demo-outfitters.example/vip",
      sandbox: false,
      private: true,
      socialEnabled: false,
      autoApprove: true,
      discountValue: "15",
      productIds: ["502"],
    },
    {
      ...base,
      ...messages("Points Club"),
      uid: "1003",
      name: "Points Club",
      description: "50 points for a referral, then 2% of every later order in points.",
      initialReward: { type: "M", amount: "50" },
      recurringReward: { type: "N", amount: "2" },
      landingPage: "https://demo-outfitters.example/points",
      sandbox: false,
      private: false,
      socialEnabled: true,
      autoApprove: false,
      discountValue: "5",
      productIds: ["503"],
    },
    {
      ...base,
      ...messages("Test Campaign"),
      uid: "1004",
      name: "Test Campaign",
      description: "Sandbox campaign for trying the integration.",
      initialReward: { type: "P", amount: "20" },
      recurringReward: { type: "D", amount: "0" },
      landingPage: "https://demo-outfitters.example/test",
      sandbox: true,
      private: false,
      socialEnabled: true,
      autoApprove: true,
      discountValue: "20",
      productIds: ["504"],
    },
    {
      ...messages("Spring Promo 2024"),
      uid: "1005",
      name: "Spring Promo 2024",
      description: "Ended spring promotion.",
      initialReward: { type: "F", amount: "5.00" },
      recurringReward: { type: "D", amount: "0" },
      landingPage: "https://demo-outfitters.example/spring",
      sandbox: false,
      private: false,
      socialEnabled: true,
      autoApprove: false,
      discountValue: "5",
      startMs: at("2024-03-01T00:00:00Z"),
      endMs: at("2024-05-31T23:59:59Z"),
      productIds: ["505"],
    },
  ];
}

interface PersonSeed {
  id: number;
  email: string;
  uid: string | null;
  first_name: string;
  last_name: string;
  createdAt: string;
  status: AmbassadorStatus;
  active: boolean;
  groups: string[];
  codeName: string;
  balance?: { money: string; points: number };
  address?: Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>;
  paypalEmail?: string;
}

function people(): PersonSeed[] {
  const { alice, bob, carol } = SEED.ambassadors;
  const { dan, erin, frank, gina } = SEED.customers;
  return [
    {
      id: 101, ...alice, createdAt: "2024-02-01T10:00:00Z", status: "enrolled", active: true, groups: ["1"], codeName: "ALICE",
      balance: { money: "12.00", points: 0 },
      address: { street: "1 Market St", city: "Portland", state: "OR", zip: "97201", country: "US", phone: "+1 503 555 0101" },
      paypalEmail: "alice.pay@example.com",
    },
    {
      id: 102, ...bob, createdAt: "2024-02-05T09:30:00Z", status: "enrolled", active: true, groups: ["1", "2"], codeName: "BOB",
      balance: { money: "15.00", points: 0 },
    },
    { id: 103, ...carol, createdAt: "2024-02-10T15:45:00Z", status: "prospect", active: false, groups: ["1"], codeName: "CAROL" },
    { id: 104, ...dan, uid: null, createdAt: "2024-03-01T12:00:00Z", status: "enrolled", active: true, groups: ["1"], codeName: "DAN" },
    { id: 105, ...erin, uid: null, createdAt: "2024-03-05T12:00:00Z", status: "enrolled", active: true, groups: ["1"], codeName: "ERIN" },
    { id: 106, ...frank, uid: null, createdAt: "2024-03-10T12:00:00Z", status: "enrolled", active: true, groups: ["1"], codeName: "FRANK" },
    { id: 107, ...gina, uid: null, createdAt: "2024-03-12T12:00:00Z", status: "enrolled", active: true, groups: ["1"], codeName: "GINA" },
  ];
}

function ambassadorFrom(person: PersonSeed, campaignUids: string[]): Ambassador {
  const createdMs = at(person.createdAt);
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, person.address?.[f] ?? null])) as Ambassador["address"];
  return {
    id: person.id,
    uid: person.uid,
    email: person.email,
    firstName: person.first_name,
    lastName: person.last_name,
    createdMs,
    enrolledMs: person.status === "enrolled" ? createdMs : null,
    unenrolledMs: null,
    status: person.status,
    active: person.active,
    sandbox: false,
    balanceCents: person.balance ? parseCents(person.balance.money) : 0,
    balancePoints: person.balance?.points ?? 0,
    moneyPaidCents: 0,
    pointsPaid: 0,
    custom: Object.fromEntries(CUSTOM_FIELDS.map((f) => [f, null])),
    groups: [...person.groups],
    address,
    company: null,
    paypalEmail: person.paypalEmail ?? null,
    shortCodes: new Map(campaignUids.map((uid) => [uid, `${person.codeName}${CAMPAIGN_CODE_SUFFIX[uid]}`])),
    ipAddresses: [],
  };
}

interface CommissionSeed {
  key: keyof typeof SEED.commissions;
  campaignUid: string;
  affiliateId: number;
  customerId: number | null;
  state: 0 | 1 | 2;
  createdAt: string;
  welcomeBonus?: boolean;
  unit: "money" | "points";
}

const COMMISSIONS: CommissionSeed[] = [
  { key: "aliceApproved", campaignUid: "1001", affiliateId: 101, customerId: 104, state: 1, createdAt: "2024-03-01T12:00:00.250Z", unit: "money" },
  { key: "bobPending", campaignUid: "1001", affiliateId: 102, customerId: 105, state: 0, createdAt: "2024-03-05T12:00:00.500Z", unit: "money" },
  { key: "aliceDenied", campaignUid: "1001", affiliateId: 101, customerId: 106, state: 2, createdAt: "2024-03-10T12:00:00.750Z", unit: "money" },
  { key: "bobWelcomeBonus", campaignUid: "1002", affiliateId: 102, customerId: null, state: 1, createdAt: "2024-03-11T08:00:00.000Z", unit: "money", welcomeBonus: true },
  { key: "alicePointsPending", campaignUid: "1003", affiliateId: 101, customerId: 107, state: 0, createdAt: "2024-03-12T12:00:00.125Z", unit: "points" },
];

/**
 * Fills an empty store with the demo company. With `people: false` only the company,
 * its campaigns, products and groups are loaded (no ambassadors, commissions, coupons).
 */
export function seedStore(store: Store, { people: withPeople = true } = {}): void {
  store.company = {
    name: SEED.company.company_name,
    url: SEED.company.company_url,
    email: SEED.company.company_email,
    pointName: SEED.company.point_name,
    outgoingEmail: SEED.company.outgoing_email,
  };
  const all = campaigns();
  for (const campaign of all) {
    store.campaigns.set(campaign.uid, campaign);
    for (const product of campaign.productIds) store.products.set(product, campaign.uid);
  }
  store.groups.set("1", { id: "1", name: "Customers", description: "Everyone who joins the program.", isDefault: true });
  store.groups.set("2", { id: "2", name: "VIP", description: "Invited top customers.", isDefault: false });

  if (!withPeople) return;
  const campaignUids = all.map((c) => c.uid);
  const byId = new Map<number, Ambassador>();
  for (const person of people()) {
    const ambassador = ambassadorFrom(person, campaignUids);
    byId.set(ambassador.id, ambassador);
    store.insertAmbassador(ambassador);
  }
  store.setIdFloor("ambassador", 200);

  for (const [code, email] of Object.entries(SEED.coupons)) {
    store.coupons.set(code, { code, ambassadorId: store.findByEmail(email)!.id, campaignUid: "1001" });
  }

  for (const seed of COMMISSIONS) {
    const data = SEED.commissions[seed.key];
    const campaign = store.campaigns.get(seed.campaignUid)!;
    const affiliate = byId.get(seed.affiliateId)!;
    const customer = seed.customerId === null ? undefined : byId.get(seed.customerId);
    const createdMs = at(seed.createdAt);
    const commission: Commission = {
      id: Number(data.commission_uid),
      campaignUid: seed.campaignUid,
      affiliateId: affiliate.id,
      referringUid: affiliate.uid,
      customerAmbassadorId: customer?.id ?? null,
      customerEmail: customer?.email ?? null,
      customerUid: null,
      revenueCents: parseCents(data.revenue),
      amountHundredths: parseCents(data.amount),
      unit: seed.unit,
      reward: seed.welcomeBonus ? null : campaign.initialReward,
      state: seed.state,
      createdMs,
      approvedMs: seed.state === 1 ? createdMs + 7 * 86_400_000 : null,
      transactionUid: data.transaction_uid,
      sandbox: false,
      welcomeBonus: seed.welcomeBonus ?? false,
      eventData: [null, null, null],
    };
    store.insertCommission(commission);
    if (commission.transactionUid) store.addTransaction(commission.campaignUid, commission.transactionUid);
    if (customer) {
      store.addReferral({ campaignUid: seed.campaignUid, referrerId: affiliate.id, customerId: customer.id, createdMs, channel: null });
    }
  }
  store.setIdFloor("commission", 5100);

  // A little traffic on Alice's Friends & Family link, so stats are not all zero.
  const clicks: [string, string][] = [
    ["facebook", "2024-02-20T10:00:00Z"],
    ["facebook", "2024-02-28T18:30:00Z"],
    ["email", "2024-02-29T08:15:00Z"],
  ];
  for (const [channel, when] of clicks) {
    store.clicks.push({
      id: store.nextId("click"), ambassadorId: 101, campaignUid: "1001", shortCode: "ALICE10", channel,
      ip: "203.0.113.7", referringUrl: null, createdMs: at(when),
    });
  }
  store.shares.push({ id: store.nextId("share"), ambassadorId: 101, campaignUid: "1001", channel: "facebook", createdMs: at("2024-02-19T09:00:00Z") });
  store.shares.push({ id: store.nextId("share"), ambassadorId: 101, campaignUid: "1001", channel: "email", createdMs: at("2024-02-19T09:05:00Z") });
}
