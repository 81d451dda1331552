import type { JobKind, PayloadOf } from "./job-kind";

// A job's row as it is stored. Built from its kind alone (no handler), so
// that the SQLite intake thread can make jobs.

export interface NewJob {
  shop: string;
  kind: string;
  key: string;
  payload: string;
  webhookId: string | null;
  triggeredAt: Date | null;
  runAt: Date;
  lane: string | null;
  laneAt: Date | null;
  arrivedBy: string | null;
}

export interface JobInput<Payload> {
  shop: string;
  /** What makes deliveries of the same work collapse, e.g. the order id. */
  subject: string;
  payload: Payload;
  webhookId?: string | null;
  triggeredAt?: Date | null;
  runAt?: Date;
  /** reconciliation | backfill: the change was read from the Admin API, no webhook having brought it. */
  arrivedBy?: string | null;
}

export function jobKey(shop: string, kind: string, subject: string): string {
  return `${shop}:${kind}:${subject}`;
}

/** The row of a new job of `kind`, its payload checked against the kind's schema. */
export function jobRow<K extends JobKind>(kind: K, input: JobInput<PayloadOf<K>>): NewJob {
  const payload = kind.payload.parse(input.payload);
  const runAt = input.runAt ?? new Date();
  const lane = kind.lane?.(input.shop, payload) ?? null;
  return {
    shop: input.shop,
    kind: kind.name,
    key: jobKey(input.shop, kind.name, input.subject),
    payload: JSON.stringify(payload),
    webhookId: input.webhookId ?? null,
    triggeredAt: input.triggeredAt ?? null,
    runAt,
    lane,
    laneAt: lane === null ? null : (input.triggeredAt ?? runAt),
    arrivedBy: input.arrivedBy ?? null,
  };
}
