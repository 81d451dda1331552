import { z } from "zod";

// The webhook envelope of the referral service and the parts of event_data the
// app reads. Everything is read loosely: the service's numbers arrive as
// numbers or strings, and unknown members are kept in the stored body.

const id = z.union([z.number(), z.string().min(1)]).transform(String);
const text = z.string().nullish();

export const envelopeSchema = z.object({
  event_id: z.union([z.number().int().nonnegative(), z.string().trim().min(1).max(100)]).transform(String),
  event_type: z.string().trim().min(1).max(100),
  created_at: text,
  webhook_version: z.union([z.number(), z.string()]).nullish(),
  event_data: z.record(z.string(), z.unknown()).nullish(),
});

export type Envelope = z.infer<typeof envelopeSchema>;

export type ParsedEnvelope = { ok: true; envelope: Envelope } | { ok: false; reason: string };

export function parseEnvelope(rawBody: string, now: Date = new Date()): ParsedEnvelope {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: "The body is not JSON." };
  }
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") };
  }
  const age = ageOf(parsed.data.created_at, now);
  if (age === null) return { ok: false, reason: "created_at is not a date." };
  if (age !== undefined && age > MAX_EVENT_AGE_MS) return { ok: false, reason: "The event was created too long ago; a replay is refused." };
  return { ok: true, envelope: parsed.data };
}

/**
 * How old an event may be. The service retries after 5 and 30 minutes (later
 * retries are not documented); created_at has no time zone, so it is read as
 * UTC and a day of any offset fits. Older events are refused: a captured
 * event replayed after its de-duplication row is gone gets nowhere.
 */
export const MAX_EVENT_AGE_MS = 3 * 24 * 60 * 60 * 1000;

/** Milliseconds since created_at (read as UTC when it has no zone); undefined when absent, null when not a date. */
function ageOf(createdAt: string | null | undefined, now: Date): number | null | undefined {
  if (!createdAt) return undefined;
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(createdAt) ? createdAt : `${createdAt}Z`;
  const time = Date.parse(zoned.replace(" ", "T"));
  return Number.isNaN(time) ? null : now.getTime() - time;
}

const contactShape = z.object({ id: id.nullish(), email: text, first_name: text, last_name: text, internal_id: text }).partial();
const contact = contactShape.nullish().catch(null);

const campaign = z.object({ id: id.nullish(), name: text }).partial().nullish().catch(null);

const amount = z.union([z.number(), z.string()]).nullish();

export const commissionDataSchema = z.object({
  contact,
  referred_contact: contact,
  campaign,
  commission: z.object({
    id: id.nullish(),
    status: z.enum(["pending", "approved", "denied"]),
    amount,
    revenue: amount,
    transaction_id: z.union([z.string(), z.number()]).nullish().transform((v) => (v === null || v === undefined || v === "" ? null : String(v))),
  }),
});

export const payoutDataSchema = z.object({
  contact,
  payout: z.object({
    id,
    amount: z.union([z.number(), z.string()]),
    unit: z.string().nullish(),
    payment_method: z.string().nullish(),
    transaction_id: text,
  }),
});

export const contactDataSchema = z.object({ contact: contactShape });

/** Lower-case emails the event names (the contact and the referred contact). */
export function emailsOf(eventData: Record<string, unknown> | null | undefined): string[] {
  const found = new Set<string>();
  for (const key of ["contact", "referred_contact"]) {
    const value = contact.parse(eventData?.[key]);
    const email = value?.email?.trim().toLowerCase();
    if (email) found.add(email);
  }
  return [...found];
}

/** ",a@x,b@y," so a LIKE on ",email," finds exactly that address. */
export function emailList(emails: string[]): string {
  return `,${emails.join(",")},`;
}

/** What the event is about, for finding related events: "commission:5002", "payout:12", "contact:34". */
export function referenceOf(envelope: Envelope): string | null {
  const data = envelope.event_data ?? {};
  for (const key of ["commission", "payout"] as const) {
    const thing = z.object({ id }).safeParse(data[key]);
    if (thing.success) return `${key}:${thing.data.id}`;
  }
  const person = contact.parse(data.contact);
  return person?.id ? `contact:${person.id}` : null;
}
