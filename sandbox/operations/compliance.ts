import { ApiError, badRequest, notFound } from "../envelope";
import { formatWebhookTime } from "../dates";
import type { Ambassador, Store } from "../state";
import { normaliseEmail } from "../state";
import { RawJson, type OperationContext, type OperationDef } from "./shared";

const ANONYMISED_EMAIL = "erased@anonymised.invalid";
const WINDOW_MS = 60_000;

/** Replaces every string equal to `email` (any case) inside a JSON-like value. */
function scrub(value: unknown, email: string): unknown {
  if (typeof value === "string") return value.toLowerCase() === email ? ANONYMISED_EMAIL : value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, email));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, email)]));
  }
  return value;
}

/**
 * Erases one person: the ambassador profile, short codes, coupons, shares and
 * clicks, the emails sent to them, and their email wherever they were the
 * referred customer. Commissions they earned stay (the company's accounting)
 * but no longer point to a person.
 */
export function erasePerson(store: Store, rawEmail: string): void {
  const email = normaliseEmail(rawEmail);
  const ambassador = store.findByEmail(email);
  for (const commission of store.commissions.values()) {
    const asCustomer =
      commission.customerEmail === email || (ambassador !== undefined && commission.customerAmbassadorId === ambassador.id);
    if (asCustomer) {
      commission.customerEmail = ANONYMISED_EMAIL;
      commission.customerUid = null;
      commission.customerAmbassadorId = null;
    }
  }
  if (ambassador) {
    store.deleteAmbassador(ambassador);
    store.clicks = store.clicks.filter((c) => c.ambassadorId !== ambassador.id);
    store.shares = store.shares.filter((s) => s.ambassadorId !== ambassador.id);
  }
  store.emails = store.emails.filter((e) => e.recipient !== email);
  store.ledgerEvents = store.ledgerEvents.map((event) => scrub(event, email) as typeof event);
}

const remove: OperationDef = {
  method: "POST",
  run({ params, store }) {
    params.require("email", "confirm");
    if (params.get("confirm") !== "1") throw badRequest(`The following ${params.wording} parameter must be 1: confirm.`);
    erasePerson(store, params.get("email")!);
    return {};
  },
};

function takeExportSlot({ store, now, limits }: OperationContext): void {
  store.exportCalls = store.exportCalls.filter((at) => at > now - WINDOW_MS);
  if (store.exportCalls.length >= limits.exportPerMinute) {
    const retryAfter = Math.max(1, Math.ceil((store.exportCalls[0] + WINDOW_MS - now) / 1000));
    throw new ApiError(429, [`compliance/export is limited to ${limits.exportPerMinute} requests per minute.`], {
      "Retry-After": String(retryAfter),
    });
  }
  store.exportCalls.push(now);
}

function profile(ambassador: Ambassador | undefined, email: string) {
  const name = [ambassador?.firstName, ambassador?.lastName].filter(Boolean).join(" ");
  return {
    first_name: ambassador?.firstName ?? null,
    last_name: ambassador?.lastName ?? null,
    full_name: name || null,
    email,
    backup_email: null,
    phone: ambassador?.address.phone ?? null,
    company: ambassador?.company ?? null,
    job_title: null,
    street: ambassador?.address.street ?? null,
    city: ambassador?.address.city ?? null,
    state: ambassador?.address.state ?? null,
    zip: ambassador?.address.zip ?? null,
    country: ambassador?.address.country ?? null,
    satisfaction_score: null,
    payservice1_email: ambassador?.paypalEmail ?? null,
    payservice2_email: null,
    avatar_url: null,
  };
}

const SOCIAL_DATA = {
  bio: null,
  facebook_username: null,
  facebook_url: null,
  facebook_friends: null,
  twitter_username: null,
  twitter_url: null,
  twitter_followers: null,
  linkedin_username: null,
  linkedin_url: null,
  linkedin_connections: null,
  influence_score: null,
  influence_score_updated_at: null,
  enrichment_data: null,
  enrichment_status: null,
};

const exportData: OperationDef = {
  method: "POST",
  run(ctx) {
    takeExportSlot(ctx);
    const { params, store } = ctx;
    params.require("email");
    const email = normaliseEmail(params.get("email")!);
    const ambassador = store.findByEmail(email);
    const asCustomer = [...store.commissions.values()].some((c) => c.customerEmail === email);
    if (!ambassador && !asCustomer) throw notFound(`No personal data exists for the email ${email}.`);
    const ips = ambassador?.ipAddresses ?? [];
    return new RawJson({
      profile: profile(ambassador, email),
      ip_addresses: [...ips],
      satisfaction_surveys: [],
      fingerprints:
        ambassador && ips.length > 0
          ? [{ cuid: `fp-${ambassador.id}`, created_at: formatWebhookTime(ambassador.createdMs), ip_addresses: [...ips], devices: [] }]
          : [],
      social_data: { ...SOCIAL_DATA },
      emails: store.emails
        .filter((e) => e.recipient === email)
        .map((e) => ({ recipient: e.recipient, subject: e.subject, message: e.message, date: formatWebhookTime(e.sentMs) })),
    });
  },
};

export const complianceOperations: Record<string, OperationDef> = {
  "compliance/remove": remove,
  "compliance/export": exportData,
};
