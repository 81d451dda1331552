import type { PrismaClient } from "@prisma/client";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import type { AdminForShop } from "../../platform/shopify-admin/admin-access";
import { applyCommissionEvent } from "./commission-events.server";
import { applyContactCreated, applyContactStatus } from "./contact-events.server";
import { parseEnvelope } from "./webhook-envelope";
import { processed, type EventResult } from "./event-result";
import { applyPayoutEvent } from "./payout-events.server";

export interface ProcessDeps {
  db: PrismaClient;
  adminForShop: AdminForShop;
  /** SHOPIFY_API_SECRET: keys the hash in an ambassador's enrolment trigger key. */
  appSecret: string;
  now(): Date;
  /** The job's JobMeta.externalWrite (see payout-events.server.ts). */
  externalWrite<T>(write: () => Promise<T>): Promise<T>;
  payoutSettleMs?: number;
}

async function act(deps: ProcessDeps, shop: string, serviceEventId: string, eventType: string, eventData: unknown): Promise<EventResult> {
  switch (eventType) {
    case "commission-created":
    case "commission-status-updated":
      return applyCommissionEvent(deps.db, shop, eventData);
    case "payout-created":
      return applyPayoutEvent(deps, shop, serviceEventId, eventData);
    case "contact-created":
      return applyContactCreated(deps, shop, eventData);
    case "contact-status-updated":
      return applyContactStatus(deps.db, shop, eventData);
    default:
      return processed("Shown for information; the app takes no action on this event type.");
  }
}

/** Acts on one stored event and records what came of it on the event. */
export async function processServiceEvent(deps: ProcessDeps, shop: string, serviceEventId: string): Promise<JobOutcome> {
  const event = await deps.db.serviceEvent.findFirst({ where: { id: serviceEventId, shop } });
  // Gone (shop/redact, customers/redact), already acted on, or waiting for the merchant: nothing to do now.
  if (!event || event.state === "processed" || event.state === "ignored" || event.state === "held") return done;
  const parsed = parseEnvelope(event.payload);
  const result = parsed.ok
    ? await act(deps, shop, event.id, event.eventType, parsed.envelope.event_data ?? {})
    : processed("The stored body can no longer be read.");
  if (!result.settled) {
    if (result.outcome.type === "wait") await deps.db.serviceEvent.updateMany({ where: { id: event.id }, data: { detail: result.outcome.reason } });
    return result.outcome;
  }
  await deps.db.serviceEvent.updateMany({
    where: { id: event.id },
    data: { state: result.state, detail: result.detail, processedAt: deps.now() },
  });
  return done;
}

export async function markServiceEventFailed(db: PrismaClient, shop: string, serviceEventId: string, reason: string): Promise<void> {
  await db.serviceEvent.updateMany({ where: { id: serviceEventId, shop }, data: { state: "failed", detail: reason } });
}

export async function noteServiceEventAttempt(db: PrismaClient, shop: string, serviceEventId: string, reason: string): Promise<void> {
  await db.serviceEvent.updateMany({ where: { id: serviceEventId, shop }, data: { detail: `Will retry: ${reason}` } });
}
