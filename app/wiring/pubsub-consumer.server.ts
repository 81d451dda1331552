import { z } from "zod";
import prisma from "./db.server";
import { getEnv } from "./env.server";
import { logger } from "../platform/logger/logger.server";
import { startStreamingPull, subscriptionProject, type StreamingPull } from "../platform/pubsub/streaming-pull.server";
import { pubSubDelivery } from "../entry/webhooks/queued-delivery.server";
import { orderIntake, queueConsumer } from "./order-intake.server";

// `npm run consume` (scripts/consume.ts): the order webhooks Shopify
// publishes to the app's Pub/Sub topic, pulled from its subscription into
// the intake the HTTP path stores through (decision 008, docs/operations.md
// "Order webhooks through Google Cloud Pub/Sub"). Each message is settled by
// what the queue consumer (queued-delivery.server.ts) makes of it.

const settingsSchema = z.object({
  PUBSUB_SUBSCRIPTION: z
    .string({ message: "must be the subscription to pull, projects/<project>/subscriptions/<subscription>" })
    .refine((name) => subscriptionProject(name) !== null, { message: "must be projects/<project>/subscriptions/<subscription>" }),
  /** Messages held at once by one consumer: about as many as one group commit takes at a burst. */
  PUBSUB_MAX_MESSAGES: z.coerce.number().int().min(1).max(10_000).default(500),
  /** Their bytes: an order webhook is a few kilobytes, so this bounds memory only for unusually large orders. */
  PUBSUB_MAX_BYTES: z.coerce.number().int().min(64 * 1024).default(32 * 1024 * 1024),
});

export type PubSubSettings = z.infer<typeof settingsSchema>;

/** The consumer's settings, or every problem with them, one line each. */
export function pubSubSettings(source: Record<string, string | undefined>): PubSubSettings {
  const parsed = settingsSchema.safeParse(source);
  if (parsed.success) return parsed.data;
  throw new Error(`The Pub/Sub consumer's environment is not valid:\n${parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n")}`);
}

export interface PubSubConsumer {
  /** Resolves with why when the subscription cannot be pulled (the process should exit and be restarted). */
  readonly failed: Promise<Error>;
  /** Stops pulling, settles what is held (SHUTDOWN_DEADLINE_MS at most), lets the intake finish and go. */
  stop(): Promise<void>;
}

/** Starts pulling once the intake takes batches at full speed. */
export async function startPubSubConsumer(settings = pubSubSettings(process.env)): Promise<PubSubConsumer> {
  const consume = queueConsumer();
  await orderIntake().ready();
  const pull: StreamingPull = startStreamingPull({
    subscription: settings.PUBSUB_SUBSCRIPTION,
    maxMessages: settings.PUBSUB_MAX_MESSAGES,
    maxBytes: settings.PUBSUB_MAX_BYTES,
    logger,
    async handle(message) {
      const settlement = await consume(pubSubDelivery({ attributes: message.attributes, data: message.data }));
      return settlement.settle === "ack" ? "ack" : "nack";
    },
  });
  logger.info({ subscription: settings.PUBSUB_SUBSCRIPTION, maxMessages: settings.PUBSUB_MAX_MESSAGES }, "pulling order webhooks from Pub/Sub");
  return {
    failed: pull.failed,
    async stop() {
      const until = Date.now() + getEnv().SHUTDOWN_DEADLINE_MS;
      await pull.stop(getEnv().SHUTDOWN_DEADLINE_MS);
      await orderIntake().close(Math.max(0, until - Date.now()));
      await prisma.$disconnect();
      logger.info("stopped");
    },
  };
}
