// Google's Pub/Sub emulator on loopback, for the tests and the bench of
// `npm run consume`, and what Shopify does with it: publishes an order
// webhook as a Pub/Sub message (the X-Shopify-* headers as attributes, the
// webhook's JSON as data). The emulator comes with the Debian package
// google-cloud-cli-pubsub-emulator (Java 17); a machine without it gets a
// clear error, never a skipped test.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { PubSub, type Topic } from "@google-cloud/pubsub";
import { freePort } from "./free-port";

const KNOWN_PATH = "/usr/lib/google-cloud-sdk/platform/pubsub-emulator/bin/cloud-pubsub-emulator";
const PACKAGE = "google-cloud-cli-pubsub-emulator";
/** The emulator takes about 3 s to answer on an idle machine. */
const START_TIMEOUT_MS = 60_000;

/** The emulator's launcher: where the Debian package put it, or its usual place. */
export function emulatorLauncher(): string {
  try {
    const listed = execFileSync("dpkg", ["-L", PACKAGE], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .split("\n")
      .find((file) => file.endsWith("/bin/cloud-pubsub-emulator"));
    if (listed && existsSync(listed)) return listed;
  } catch {
    // dpkg does not know the package: try the usual place.
  }
  if (existsSync(KNOWN_PATH)) return KNOWN_PATH;
  throw new Error(
    `The Google Cloud Pub/Sub emulator is not installed (Debian package ${PACKAGE}, with Java 17; or \`gcloud components install pubsub-emulator\`). ` +
      "The Pub/Sub consumer's tests and the --pubsub bench need it.",
  );
}

export interface PubSubEmulator {
  /** host:port, the value of PUBSUB_EMULATOR_HOST. */
  host: string;
  /** The launcher's process (the JVM is its child). */
  pid: number;
  /** What a consumer process needs to pull from the emulator, and nothing off this machine. */
  env: Record<string, string>;
  /** A client of the emulator. */
  client(projectId: string): PubSub;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Google's auth library looks for a cloud's metadata server (off this
 * machine) even for the emulator, unless told there is none.
 */
const NO_METADATA_SERVER = { METADATA_SERVER_DETECTION: "none" };

export async function startPubSubEmulator(): Promise<PubSubEmulator> {
  Object.assign(process.env, NO_METADATA_SERVER);
  const launcher = emulatorLauncher();
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  let output = "";
  // detached: its own process group, so that stop() ends the JVM the launcher script starts too.
  const child: ChildProcess = spawn(launcher, [`--host=127.0.0.1`, `--port=${port}`], { stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  // A caller that ends without stop() (a crash) leaves no JVM behind.
  const killGroup = () => {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  };
  process.once("exit", killGroup);
  const until = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The Pub/Sub emulator stopped at start (exit ${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`http://${host}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      process.kill(-child.pid!, "SIGKILL");
      throw new Error(`The Pub/Sub emulator did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const clients: PubSub[] = [];
  return {
    host,
    pid: child.pid!,
    env: { PUBSUB_EMULATOR_HOST: host, ...NO_METADATA_SERVER },
    client(projectId) {
      const client = new PubSub({ projectId, apiEndpoint: host, emulatorMode: true });
      clients.push(client);
      return client;
    },
    output: () => output,
    async stop() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      process.off("exit", killGroup);
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    },
  };
}

/**
 * A topic and its subscription. Without the retry backoff docs/operations.md
 * gives a production subscription: the emulator (0.8.20) with one stopped
 * redelivering the messages of a killed consumer (measured: 325 of 600 came
 * back, the rest never); without one, a handed-back message comes back at once.
 */
export async function createOrderTopic(client: PubSub, name: string, options: { ackDeadlineSeconds?: number } = {}): Promise<{ topic: Topic; subscription: string }> {
  const [topic] = await client.createTopic(name);
  const [subscription] = await topic.createSubscription(`${name}-consumer`, {
    ackDeadlineSeconds: options.ackDeadlineSeconds ?? 10,
  });
  return { topic, subscription: subscription.name };
}

export interface ShopifyMessage {
  topic: string;
  shop: string;
  /** The webhook's JSON text, exactly as Shopify serialises it (64-bit ids in full). */
  body: string;
  webhookId?: string;
  triggeredAt?: string;
}

/** The attributes Shopify puts on a webhook's Pub/Sub message: its HTTP delivery's X-Shopify-* headers. */
export function shopifyAttributes(message: ShopifyMessage): Record<string, string> {
  return {
    "X-Shopify-Topic": message.topic,
    "X-Shopify-Shop-Domain": message.shop,
    "X-Shopify-API-Version": "2026-10",
    "X-Shopify-Webhook-Id": message.webhookId ?? randomUUID(),
    "X-Shopify-Triggered-At": message.triggeredAt ?? new Date().toISOString(),
    "X-Shopify-Event-Id": randomUUID(),
  };
}

/** Publishes webhooks as Shopify does; resolves once the emulator has them all. */
export async function publishAsShopify(topic: Topic, messages: ShopifyMessage[]): Promise<void> {
  await Promise.all(messages.map((message) => topic.publishMessage({ data: Buffer.from(message.body), attributes: shopifyAttributes(message) })));
}
