import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createOrderTopic, publishAsShopify, startPubSubEmulator, type PubSubEmulator } from "../../../scripts/lib/pubsub-emulator";

// A stopping consumer's last settlements reach Pub/Sub: the acks and nacks
// its handlers gave just before stop() are sent before it resolves, not
// left in the client's batches for a process that has exited.

const PROJECT = "referral-bridge-streaming-pull";
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
let emulator: PubSubEmulator;

beforeAll(async () => {
  emulator = await startPubSubEmulator();
}, 60_000);

afterAll(async () => {
  await emulator?.stop();
});

/** What a plain pull of the subscription returns over `ms`, each acknowledged as it comes. */
async function pulledWithin(subscription: string, ms: number): Promise<string[]> {
  const started = Date.now();
  const pulled: string[] = [];
  const call = (verb: string, body: unknown) =>
    fetch(`http://${emulator.host}/v1/${subscription}:${verb}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  while (Date.now() - started < ms) {
    const response = await call("pull", { maxMessages: 100, returnImmediately: true });
    const { receivedMessages = [] } = (await response.json()) as { receivedMessages?: { ackId: string; message: { data: string } }[] };
    for (const { message } of receivedMessages) pulled.push(Buffer.from(message.data, "base64").toString());
    if (receivedMessages.length > 0) await call("acknowledge", { ackIds: receivedMessages.map(({ ackId }) => ackId) });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pulled;
}

/**
 * A consumer in a process of its own that holds both messages, is stopped as its handlers answer
 * (one ack, one nack), and exits as soon as stop() resolves, as `npm run consume` does on SIGTERM.
 */
function consumerStoppedAsItSettles(subscription: string) {
  const script = `
    import { startStreamingPull } from "./app/platform/pubsub/streaming-pull.server.ts";
    const answers = new Map();
    const silent = { info() {}, warn() {}, error() {} };
    const pull = startStreamingPull({
      subscription: ${JSON.stringify(subscription)}, maxMessages: 10, maxBytes: 1024 * 1024, logger: silent,
      handle: (message) => new Promise((answer) => {
        answers.set(message.data.toString(), answer);
        if (answers.size < 2) return;
        const stopped = pull.stop(5000);
        answers.get("keep")("ack");
        answers.get("give back")("nack");
        void stopped.then(() => process.exit(0));
      }),
    });
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: repoRoot,
    env: { ...process.env, PUBSUB_EMULATOR_HOST: emulator.host },
    // A consumer that never stops is ended with the test.
    timeout: 30_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

it("sends the nack given as it stops before its process exits: the handed-back message is delivered again at once, and the acknowledged one is not handed back with it", async () => {
  // GIVEN two messages on a subscription
  const { topic, subscription } = await createOrderTopic(emulator.client(PROJECT), "settled-on-stop");
  await publishAsShopify(topic, ["keep", "give back"].map((body) => ({ topic: "orders/paid", shop: "a.myshopify.com", body })));

  // WHEN a consumer holding both is stopped as its handlers answer, and its process exits once stop() resolves
  const { code, output } = await consumerStoppedAsItSettles(subscription);
  expect(code, output).toBe(0);

  // THEN the nacked message is delivered again at once, and only it. (Unsent, the nack would keep it leased
  // to the exited process: the emulator did not deliver it again within a minute.)
  expect(await pulledWithin(subscription, 3_000)).toEqual(["give back"]);
}, 60_000);
