import type { Logger } from "pino";
import type { IntakeStore } from "./intake-store.server";
import type { Delivery, IntakeResult } from "./planner";

/** Enough rows for one commit to absorb a large burst, small enough to keep each commit short. */
const MAX_BATCH = 1_000;
/**
 * Batches handed to the store at once. The SQLite store's thread takes them
 * one after another, so it starts on the next as soon as a commit is done
 * instead of waiting for the event loop to hand it over (measured: one at a
 * time gave ~20% fewer webhooks a second, three no more than two).
 */
const MAX_BATCHES_IN_FLIGHT = 2;

interface Waiting {
  hook: Delivery;
  settle: (result: IntakeResult) => void;
  fail: (error: unknown) => void;
}

export interface Intake {
  /** Stores what the delivery asks for; resolves once it is committed. */
  store(delivery: Delivery): Promise<IntakeResult>;
  /** Resolves once the store takes batches at full speed (at boot, before the first webhook). */
  ready(): Promise<void>;
  /** After the last store has settled: lets the store go (planning what it kept for `deadlineMs` at most). */
  close(deadlineMs?: number): Promise<void>;
}

export interface IntakeDeps {
  logger: Logger;
  /** Some delivery stored work for the worker ("queued"): it may start on it now instead of at its next poll. */
  wake(): void;
}

/**
 * Group commit: the deliveries that arrive during one turn of the event loop
 * are stored together in one transaction, so under load each commit carries
 * many, and when idle a delivery is stored on the next turn.
 */
export function createIntake(store: IntakeStore, { logger, wake }: IntakeDeps): Intake {
  store.onPlanned((planned) => {
    if (planned.some(({ result }) => result.outcome === "queued")) wake();
    for (const { result, ...hook } of planned) report(logger, hook, result);
  });
  let waiting: Waiting[] = [];
  let scheduled = false;
  let inFlight = 0;

  function schedule() {
    if (scheduled || inFlight >= MAX_BATCHES_IN_FLIGHT) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  }

  async function flush() {
    const batch = waiting.slice(0, MAX_BATCH);
    waiting = waiting.slice(batch.length);
    inFlight++;
    try {
      await storeBatch(batch);
    } catch (error) {
      logger.error({ err: error, webhooks: batch.length }, "could not store order webhooks; Shopify will deliver them again");
      for (const w of batch) w.fail(error);
    } finally {
      inFlight--;
      if (waiting.length > 0) schedule();
    }
  }

  async function storeBatch(batch: Waiting[]) {
    const results = await store.intake(batch.map((w) => w.hook));
    if (results.some((r) => r.outcome === "queued")) wake();
    batch.forEach((w, i) => {
      report(logger, w.hook, results[i]!);
      w.settle(results[i]!);
    });
  }

  return {
    store(delivery) {
      return new Promise<IntakeResult>((settle, fail) => {
        waiting.push({ hook: delivery, settle, fail });
        schedule();
      });
    },
    ready: () => store.ready(),
    close: (deadlineMs) => store.close(deadlineMs),
  };
}

function report(logger: Logger, hook: Pick<Delivery, "shop" | "topic" | "webhookId">, result: IntakeResult) {
  const context = { shop: hook.shop, topic: hook.topic, webhookId: hook.webhookId, outcome: result.outcome, detail: result.detail };
  if (result.outcome === "accepted") logger.debug(context, "order webhook accepted; planned in a moment");
  else if (result.outcome === "malformed") logger.error(context, "malformed webhook payload");
  else if (result.outcome === "set_aside") logger.error(context, "order webhook could not be planned; set aside, planned again when the app next starts");
  else if (result.outcome === "no_session") logger.warn(context, "webhook for a shop without a session (uninstalled?); not queued");
  else logger.info(context, "order webhook stored");
}
