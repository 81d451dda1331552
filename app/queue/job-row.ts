import type { z } from "zod";
import type { JobKind } from "./kinds";

// A job's row as it is stored. Built without the job registry (and so
// without the handlers and what they load), for the SQLite intake thread.

export interface NewJob {
  shop: string;
  kind: JobKind;
  key: string;
  payload: string;
  webhookId: string | null;
  triggeredAt: Date | null;
  runAt: Date;
  lane: string | null;
  laneAt: Date | null;
  arrivedBy: string | null;
}

export interface JobRowInput<Payload> {
  shop: string;
  kind: JobKind;
  /** What makes deliveries of the same work collapse, e.g. the order id. */
  subject: string;
  payload: Payload;
  webhookId?: string | null;
  triggeredAt?: Date | null;
  runAt?: Date;
  /** Jobs of one lane run one at a time, in the order of their trigger (see claimNextJob). */
  lane?: string | null;
  /** reconciliation | backfill: the change was read from the Admin API, no webhook having brought it. */
  arrivedBy?: string | null;
}

export function jobKey(shop: string, kind: string, subject: string): string {
  return `${shop}:${kind}:${subject}`;
}

/** The row of a new job, its payload checked against the job's schema. */
export function jobRowChecked<Schema extends z.ZodType>(schema: Schema, input: JobRowInput<z.input<Schema>>): NewJob {
  const runAt = input.runAt ?? new Date();
  const lane = input.lane ?? null;
  return {
    shop: input.shop,
    kind: input.kind,
    key: jobKey(input.shop, input.kind, input.subject),
    payload: JSON.stringify(schema.parse(input.payload)),
    webhookId: input.webhookId ?? null,
    triggeredAt: input.triggeredAt ?? null,
    runAt,
    lane,
    laneAt: lane === null ? null : (input.triggeredAt ?? runAt),
    arrivedBy: input.arrivedBy ?? null,
  };
}
