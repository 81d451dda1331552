// One running sandbox: its store, faults, webhook dispatcher and credentials.
// The HTTP layers (v2, token API, control API) all work through this object.

import { Faults } from "./faults";
import { commissionItem } from "./render";
import { formatCents } from "./money";
import { formatOffsetTime } from "./dates";
import { seedStore, SEED } from "./seed";
import { Store, type Ambassador } from "./state";
import { WebhookDispatcher } from "./webhooks";

export interface CoreConfig {
  username: string;
  token: string;
  timeScale: number;
  exportRateLimitPerMinute: number;
  webhookTimeoutMs: number;
  /** false: the company and campaigns only, no ambassadors or commissions. */
  seedPeople: boolean;
  quiet: boolean;
  verbose: boolean;
}

export interface Credentials {
  username: string;
  token: string;
}

const STATE_NAMES = ["pending", "approved", "denied"] as const;

export class SandboxCore {
  readonly faults = new Faults();
  readonly webhooks: WebhookDispatcher;
  store: Store;
  credentials: Credentials;
  baseUrl = "http://127.0.0.1";

  constructor(readonly config: CoreConfig) {
    this.credentials = { username: config.username, token: config.token };
    this.webhooks = new WebhookDispatcher({ timeScale: config.timeScale, timeoutMs: config.webhookTimeoutMs });
    this.store = this.freshStore();
  }

  /** The token-header interface accepts the current username with this password. */
  get password(): string {
    return SEED.credentials.password;
  }

  get apiKey(): string {
    return SEED.credentials.apiKey;
  }

  setBaseUrl(baseUrl: string): void {
    this.baseUrl = baseUrl;
    this.store.baseUrl = baseUrl;
  }

  reset(): void {
    this.webhooks.reset();
    this.faults.clear();
    this.credentials = { username: this.config.username, token: this.config.token };
    this.store = this.freshStore();
  }

  setCredentials(input: unknown): Credentials {
    const raw = (input ?? {}) as Record<string, unknown>;
    const ok = (v: unknown) => typeof v === "string" && /^[^/\s]+$/.test(v);
    if (!ok(raw.username) || !ok(raw.token)) {
      throw new Error("username and token must be non-empty strings without slashes or spaces.");
    }
    this.credentials = { username: raw.username as string, token: raw.token as string };
    return { ...this.credentials };
  }

  log(line: string): void {
    if (this.config.verbose && !this.config.quiet) console.log(`[sandbox] ${line}`);
  }

  logError(line: string): void {
    if (!this.config.quiet) console.error(`[sandbox] ${line}`);
  }

  ledger() {
    const store = this.store;
    return {
      events: store.ledgerEvents,
      commissions: [...store.commissions.values()].map((c) => ({
        ...commissionItem(store, c),
        state: STATE_NAMES[c.state],
        unit: c.unit,
      })),
      ambassadors: this.ledgerAmbassadors(),
      requests: store.ledgerRequests,
      webhooks: this.webhooks.deliveries(),
      emails: store.emails.map((e) => ({ ...e, sent_at: new Date(e.sentMs).toISOString() })),
      payouts: store.payouts,
    };
  }

  private ledgerAmbassadors() {
    const referredBy = new Map<number, { campaign_uid: string; referrer_email: string | null }[]>();
    for (const r of this.store.referrals.values()) {
      const list = referredBy.get(r.customerId) ?? [];
      list.push({ campaign_uid: r.campaignUid, referrer_email: this.store.ambassadors.get(r.referrerId)?.email ?? null });
      referredBy.set(r.customerId, list);
    }
    return [...this.store.ambassadors.values()].map((a) => this.ledgerAmbassador(a, referredBy.get(a.id) ?? []));
  }

  private ledgerAmbassador(a: Ambassador, referredBy: { campaign_uid: string; referrer_email: string | null }[]) {
    return {
      id: a.id,
      email: a.email,
      uid: a.uid,
      first_name: a.firstName,
      last_name: a.lastName,
      status: a.status,
      active: a.active,
      sandbox: a.sandbox,
      groups: a.groups,
      balance_money: formatCents(a.balanceCents),
      balance_points: String(a.balancePoints),
      money_paid: formatCents(a.moneyPaidCents),
      points_paid: String(a.pointsPaid),
      short_codes: Object.fromEntries(a.shortCodes),
      created_at: formatOffsetTime(a.createdMs),
      referred_by: referredBy,
    };
  }

  private freshStore(): Store {
    const store = new Store();
    store.baseUrl = this.baseUrl;
    seedStore(store, { people: this.config.seedPeople });
    store.emit = (type, data) => this.webhooks.emit(type, data);
    return store;
  }
}
