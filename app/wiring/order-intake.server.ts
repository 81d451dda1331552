import prisma from "./db.server";
import { databaseKind } from "../platform/db/adapter.server";
import { createPlainSql } from "../platform/db/sql.server";
import { getEnv } from "./env.server";
import { logger, type Logger } from "../platform/logger/logger.server";
import { createIntake, type Intake } from "../platform/intake/group-commit.server";
import { inThisThread, postgresIntakeStore, sqliteIntakeStore, type IntakeStore } from "../platform/intake/intake-store.server";
import { notifyJobEnqueued } from "../platform/queue/wake";
import { intakeInWorkerThread } from "./in-process-worker.server";
import type { IntakeResult, OrderWebhook } from "../domains/referrals";
import { cachedShopCheck, type CachedShopCheck } from "../entry/webhooks/installed-shops";
import { createOrderWebhooks, type OrderWebhooks } from "../entry/webhooks/order-webhooks.server";
import { createQueueConsumer, type QueueConsumer, type QueueConsumerDeps } from "../entry/webhooks/queued-delivery.server";
import { INTAKE_PLANNER, intakeThread } from "./intake-planner";
import { announceWebhookBursts } from "./webhook-bursts.server";

// The order intake of this process: one group commit on the app's database,
// planned by the referral domain's order planner, which order webhooks, the
// queue consumer (decision 008), reconciliation and the backfill all store
// through.

/** `plansKept: false`: a store for orders the app reads itself, which leaves the planning of kept webhooks to the webhooks' store (SQLite). */
export function intakeStoreFor(databaseUrl: string, { plansKept = true } = {}): IntakeStore {
  // A batch commits while the next one is planned: two connections, and one spare for a reconciliation's batch.
  // Kept open when idle: a burst after a quiet spell would otherwise wait for its first batches to connect.
  if (databaseKind(databaseUrl) === "postgresql") {
    const sql = createPlainSql(databaseUrl, { poolSize: 3, keepIdle: true });
    const stopAnnouncing = announceWebhookBursts(sql);
    const store = postgresIntakeStore(sql, INTAKE_PLANNER);
    return {
      ...store,
      close() {
        stopAnnouncing();
        return store.close();
      },
    };
  }
  return sqliteIntakeStore(databaseUrl.slice("file:".length), {
    planner: INTAKE_PLANNER,
    thread: intakeThread(),
    plansKept,
    // The webhooks' intake beside the job worker, in its thread; the one for orders a job reads, in the job's own thread.
    host: plansKept ? intakeInWorkerThread : inThisThread,
    planningFailed: (message) => logger.error({ err: message }, "could not plan the order webhooks kept for later; trying again in a moment"),
  });
}

/** An intake over `store`: a delivery that queues a job wakes this process's worker. */
export function intakeOver(store: IntakeStore, log: Logger = logger): Intake {
  return createIntake(store, { logger: log, wake: notifyJobEnqueued });
}

declare global {
  var __referralBridgeIntake: Intake | undefined;
  var __referralBridgeReadOrdersIntake: Intake | undefined;
  var __referralBridgeOrderWebhooks: OrderWebhooks | undefined;
  var __referralBridgeQueueConsumer: QueueConsumer | undefined;
  var __referralBridgeShopCheck: CachedShopCheck | undefined;
}

/** The app's intake, on the app's database (made on first use: on SQLite it starts a thread). */
export function orderIntake(): Intake {
  return (globalThis.__referralBridgeIntake ??= intakeOver(intakeStoreFor(getEnv().DATABASE_URL)));
}

export function storeOrderWebhook(hook: OrderWebhook): Promise<IntakeResult> {
  return orderIntake().store(hook);
}

/**
 * Stores orders the app read from the Admin API (reconciliation, the
 * backfill), planned at once. On SQLite through an intake of their own: the
 * webhooks' intake plans what it keeps in the background, and this one waits
 * for it before its batches (an order whose webhook was kept counts as
 * delivered). PostgreSQL keeps nothing: the one intake serves both.
 */
export function storeReadOrders(hooks: OrderWebhook[]): Promise<IntakeResult[]> {
  const databaseUrl = getEnv().DATABASE_URL;
  const intake =
    databaseKind(databaseUrl) === "postgresql"
      ? orderIntake()
      : (globalThis.__referralBridgeReadOrdersIntake ??= intakeOver(intakeStoreFor(databaseUrl, { plansKept: false })));
  return Promise.all(hooks.map((hook) => intake.store(hook)));
}

/**
 * Whether a shop has the app installed, asked before an order webhook's body
 * is read: its offline session, under the id Shopify's session storage gives
 * it (what the intake and authenticate.webhook look up), cached.
 */
export function shopHasSession(shop: string): Promise<boolean> {
  globalThis.__referralBridgeShopCheck ??= cachedShopCheck(async (name) => !!(await prisma.session.findUnique({ where: { id: `offline_${name}` }, select: { id: true } })));
  return globalThis.__referralBridgeShopCheck(shop);
}

/** A shop has just installed: this process asks the database again (others within NOT_INSTALLED_KEPT_MS, 5 s). */
export function forgetShopCheck(shop: string): void {
  globalThis.__referralBridgeShopCheck?.forget(shop);
}

/** The order webhooks' endpoints of this process. */
export function orderWebhooks(): OrderWebhooks {
  return (globalThis.__referralBridgeOrderWebhooks ??= createOrderWebhooks({ secret: getEnv().SHOPIFY_API_SECRET, shopHasSession, store: storeOrderWebhook, logger }));
}

/** Keeps a queued delivery refused for good, for the Overview of the shop it names. */
export const keepRefusal: QueueConsumerDeps["keepRefusal"] = async (refusal) => void (await prisma.refusedDelivery.create({ data: refusal }));

/** A queue consumer (decision 008) over `intake`. */
export function queueConsumerFor(intake: Intake): QueueConsumer {
  return createQueueConsumer({
    store: (delivery) => intake.store(delivery),
    shopHasSession,
    keepRefusal,
    logger,
  });
}

/** The consumer of order webhooks a cloud queue delivers (Pub/Sub, EventBridge), over this process's intake. */
export function queueConsumer(): QueueConsumer {
  return (globalThis.__referralBridgeQueueConsumer ??= queueConsumerFor(orderIntake()));
}

/** The production server's shortcut for order webhooks (server.mjs). */
export const serveOrderWebhook: OrderWebhooks["serve"] = (req, res) => orderWebhooks().serve(req, res);

/** The Remix action of every order topic route. */
export const serveOrderWebhookRequest = ({ request }: { request: Request }) => orderWebhooks().serveRequest(request);
