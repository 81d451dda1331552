// `npm run consume`: pulls the order webhooks Shopify publishes to the app's
// Google Cloud Pub/Sub topic (PUBSUB_SUBSCRIPTION) into the intake, beside
// the app and worker processes; several may pull one subscription. On
// SIGTERM it stops pulling, stores what it holds, hands the rest back and
// sends its last acknowledgements (SHUTDOWN_DEADLINE_MS in all), and exits
// 0. It exits 1 when the subscription cannot be pulled, for its supervisor
// to start it again.
import "./lib/require-node";
import { startPubSubConsumer } from "../app/wiring/pubsub-consumer.server";

let consumer: Awaited<ReturnType<typeof startPubSubConsumer>>;
try {
  consumer = await startPubSubConsumer();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
void consumer.failed.then(async () => {
  await consumer.stop();
  process.exit(1);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await consumer.stop();
    process.exit(0);
  });
}
