import { listenChannel } from "../platform/db/pg-channel.server";
import type { PlainSql } from "../platform/db/sql.server";
import { logger } from "../platform/logger/logger.server";
import { onBurst } from "../entry/webhooks/acknowledgements";

// Worker processes hold back their claims while an app process answers a
// burst of order webhooks (as the in-process worker's thread does, from
// shared memory): the jobs' statements go to the same database server, and on
// a small machine to the same CPUs, and would slow the acknowledgements
// Shopify waits for. During a burst each app process says so on a PostgreSQL
// channel, at most every ANNOUNCE_EVERY_MS; a worker counts the burst as over
// once it has heard nothing for HEARD_FOR_MS. The hold is bounded by the
// worker (shouldYield), so a load that never ends still leaves jobs half the time.

export const WEBHOOK_BURST_CHANNEL = "referral_bridge_webhook_burst";
const ANNOUNCE_EVERY_MS = 50;
const HEARD_FOR_MS = 250;

/** App processes on PostgreSQL: announce each burst on the intake's own connections. */
export function announceWebhookBursts(sql: PlainSql): () => void {
  return onBurst(() => {
    sql.boundRows("SELECT pg_notify($1, '')", [WEBHOOK_BURST_CHANNEL]).catch((error: unknown) => logger.debug({ err: error }, "could not announce a burst of order webhooks"));
  }, ANNOUNCE_EVERY_MS);
}

export interface BurstHearing {
  /** True while an app process announced a burst within the last HEARD_FOR_MS. */
  duringBurst(): boolean;
  close(): Promise<void>;
}

/** Worker processes on PostgreSQL: listen for the app processes' bursts. */
export function hearWebhookBursts(databaseUrl: string): BurstHearing {
  let heardAt = -Infinity;
  const listening = listenChannel(databaseUrl, WEBHOOK_BURST_CHANNEL, () => (heardAt = performance.now()), logger);
  return { duringBurst: () => performance.now() - heardAt < HEARD_FOR_MS, close: () => listening.close() };
}
