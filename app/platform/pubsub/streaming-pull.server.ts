import { Duration, PubSub, type Message } from "@google-cloud/pubsub";
import type { Logger } from "pino";

// One Google Cloud Pub/Sub subscription pulled with the client's streaming
// pull, each message handed to `handle` and settled as it answers. Flow
// control bounds what is held at once (messages and bytes): the client asks
// the server for no more, and dispenses no more to `handle`. While a message
// is held the client extends its lease, so a slow store does not have it
// delivered twice; a process that dies holding it lets the lease run out and
// Pub/Sub delivers it again, which is why `handle` must be idempotent.
// Against the emulator when PUBSUB_EMULATOR_HOST is set (the client reads it).

/** A message as the handler sees it. `deliveryAttempt`: set when the subscription has a dead-letter policy. */
export interface PulledMessage {
  id: string;
  attributes: Record<string, string>;
  data: Buffer;
  deliveryAttempt?: number;
}

/** ack: done with it for good; nack: deliver it again (after the subscription's retry backoff). */
export type Verdict = "ack" | "nack";

export interface StreamingPullOptions {
  /** projects/<project>/subscriptions/<subscription> */
  subscription: string;
  /** Messages held at once, and their bytes. */
  maxMessages: number;
  maxBytes: number;
  handle(message: PulledMessage): Promise<Verdict>;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

export interface StreamingPull {
  /** Resolves when the subscription can no longer be pulled (it does not exist, access denied), with why. */
  readonly failed: Promise<Error>;
  /** Stops pulling; the messages held are settled as their handlers answer, the rest nacked, and the acks and nacks sent: `deadlineMs` in all (SETTLE_ON_CLOSE_MS of it for the sending). */
  stop(deadlineMs: number): Promise<void>;
}

/** How long close() may take to send the last acks and nacks (the client warns under a second). */
const SETTLE_ON_CLOSE_MS = 2_000;

const SUBSCRIPTION = /^projects\/([^/]+)\/subscriptions\/([^/]+)$/;

/** The project a full subscription name is in, or null when the name is not projects/<p>/subscriptions/<s>. */
export function subscriptionProject(name: string): string | null {
  return SUBSCRIPTION.exec(name)?.[1] ?? null;
}

export function startStreamingPull({ subscription: name, maxMessages, maxBytes, handle, logger }: StreamingPullOptions): StreamingPull {
  const projectId = subscriptionProject(name);
  if (!projectId) throw new Error(`PUBSUB_SUBSCRIPTION must be projects/<project>/subscriptions/<subscription>, not "${name}"`);
  const client = new PubSub({ projectId });
  const subscription = client.subscription(name, {
    flowControl: { maxMessages, maxBytes, allowExcessMessages: false },
    // close() hands back what is still held and sends the batched acks and nacks. With a timeout of
    // zero the client returns without sending them: acknowledged messages would be delivered again,
    // handed-back ones would wait out their lease.
    closeOptions: { behavior: "NACK", timeout: Duration.from({ milliseconds: SETTLE_ON_CLOSE_MS }) },
  });
  const held = new Set<Promise<void>>();
  let stopping = false;
  let fail: (error: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (fail = resolve));

  subscription.on("message", (message: Message) => {
    if (stopping) {
      message.nack();
      return;
    }
    const settled = settle(message).finally(() => held.delete(settled));
    held.add(settled);
  });
  subscription.on("error", (error: Error) => {
    logger.error({ err: error, subscription: name }, "the Pub/Sub subscription cannot be pulled");
    fail(error);
  });

  async function settle(message: Message): Promise<void> {
    let verdict: Verdict;
    try {
      verdict = await handle({ id: message.id, attributes: message.attributes ?? {}, data: message.data, deliveryAttempt: message.deliveryAttempt || undefined });
    } catch (error) {
      logger.error({ err: error, messageId: message.id }, "a Pub/Sub message could not be handled; it is delivered again");
      verdict = "nack";
    }
    if (verdict === "ack") message.ack();
    else message.nack();
  }

  return {
    failed,
    async stop(deadlineMs) {
      stopping = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      // The last acks and nacks are sent within the deadline too.
      const forHandlers = Math.max(0, deadlineMs - SETTLE_ON_CLOSE_MS);
      const deadline = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), forHandlers)));
      const outcome = await Promise.race([Promise.all([...held]).then(() => "done" as const), deadline]);
      clearTimeout(timer);
      if (outcome === "late") logger.warn({ held: held.size }, "stopping with Pub/Sub messages still being stored; Pub/Sub delivers them again");
      // Sends the acks and nacks still batched, and nacks what is held.
      await subscription.close();
      await client.close();
    },
  };
}
