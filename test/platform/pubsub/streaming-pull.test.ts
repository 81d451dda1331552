import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createOrderTopic, publishAsShopify, startPubSubEmulator, type PubSubEmulator } from "../../../scripts/lib/pubsub-emulator";

// A stopping consumer's last settlements reach Pub/Sub: the acks and nacks
// its handlers gave just before stop() are sent before it resolves, not
// left in the client's batches for a process that has exited (Pub/Sub would
// deliver an acknowledged message again and keep a handed-back one leased
// until its deadline ran out).

const PROJECT = "referral-bridge-streaming-pull";
const ACK_DEADLINE_S = 10;
let emulator: PubSubEmulator;

beforeAll(async () => {
  emulator = await startPubSubEmulator();
}, 60_000);

afterAll(async () => {
  await emulator?.stop();
});

/** What a plain pull of the subscription returns over `ms`, each acknowledged as it comes. */
async function pulledWithin(subscription: string, ms: number): Promise<{ body: string; afterMs: number }[]> {
  const started = Date.now();
  const pulled: { body: string; afterMs: number }[] = [];
  const call = (verb: string, body: unknown) =>
    fetch(`http://${emulator.host}/v1/${subscription}:${verb}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  while (Date.now() - started < ms) {
    const response = await call("pull", { maxMessages: 100, returnImmediately: true });
    const { receivedMessages = [] } = (await response.json()) as { receivedMessages?: { ackId: string; message: { data: string } }[] };
    for (const { message } of receivedMessages) pulled.push({ body: Buffer.from(message.data, "base64").toString(), afterMs: Date.now() - started });
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
    env: { ...process.env, PUBSUB_EMULATOR_HOST: emulator.host },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

it("sends the acks and nacks given as it stops before the process exits: the acknowledged message never comes back, the handed-back one at once", async () => {
  // GIVEN two messages on a subscription
  const { topic, subscription } = await createOrderTopic(emulator.client(PROJECT), "settled-on-stop", { ackDeadlineSeconds: ACK_DEADLINE_S });
  await publishAsShopify(topic, ["keep", "give back"].map((body) => ({ topic: "orders/paid", shop: "a.myshopify.com", body })));

  // WHEN a consumer holding both is stopped as its handlers answer, and its process exits once stop() resolves
  const { code, output } = await consumerStoppedAsItSettles(subscription);
  expect(code, output).toBe(0);

  // THEN Pub/Sub has both answers: the nacked message is delivered again at once, the acked one not even after its lease would have run out
  const pulled = await pulledWithin(subscription, (ACK_DEADLINE_S + 2) * 1_000);
  expect(pulled.map(({ body }) => body)).toEqual(["give back"]);
  expect(pulled[0]!.afterMs).toBeLessThan(3_000);
}, 60_000);
