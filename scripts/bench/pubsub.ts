// npm run bench -- --db postgresql --pubsub [N]: the order webhooks through
// Google Cloud Pub/Sub, on this machine's emulator. N orders (10,000) are
// published first, as Shopify publishes them; then two consumers
// (`npm run consume`) and two workers start on a private PostgreSQL cluster,
// while the sandbox service adds 300 ms to every event/record. Prints the
// messages stored per second, the drain, whether each order was recorded
// exactly once, and the CPU seconds and peak memory of each kind of process,
// the emulator's among them (to tell whether it or the app sets the pace).
import type { ChildProcess } from "node:child_process";
import type { PrismaClient } from "@prisma/client";
import { randomBytes } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import { buildIfNeeded, demoAppEnv, freshRunDatabase, spawnConsumerProcess, spawnWorkerProcess } from "../lib/app-process";
import { generatePrismaClient } from "../lib/prisma-client";
import { DEFAULT_WORKER_CONCURRENCY } from "../../app/platform/queue/defaults";
import { createOrderTopic, publishAsShopify, startPubSubEmulator } from "../lib/pubsub-emulator";
import { shopifyOrder } from "../lib/sample-orders";
import { cpuSeconds, parentPid } from "./cpu";
import { peakResidentMb, SERVICE_LATENCY_MS, startSlowService } from "./processes";

const PROCESSES = 2;
const PROJECT = "referral-bridge-bench";

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

/** Waits (10 minutes at most) until `count()` reaches `expected`, asking twice a second; its last answer. */
async function until(count: () => Promise<number>, expected: number): Promise<number> {
  const started = performance.now();
  let seen = 0;
  while (performance.now() - started < 600_000) {
    seen = await count();
    if (seen >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return seen;
}

/** Counts the running jobs every 250 ms while a backlog is queued, until stopped: how many calls the workers keep in flight. */
function sampleRunningJobs(appDb: PrismaClient): { stop(): Promise<{ mean: number; max: number }> } {
  const samples: number[] = [];
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      // Whether any job is queued, not how many: counting the backlog four times a second would cost the database more than the answer is worth.
      const [running, queued] = await Promise.all([appDb.job.count({ where: { status: "running" } }), appDb.job.findFirst({ where: { status: "queued" }, select: { id: true } })]);
      if (queued) samples.push(running);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    async stop() {
      sampling = false;
      await loop;
      return { mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length), max: Math.max(0, ...samples) };
    },
  };
}

/** Runs the bench; true when every order was recorded exactly once. */
export async function runPubSubBench(N: number): Promise<boolean> {
  buildIfNeeded(console.log);
  generatePrismaClient("postgresql");
  process.on("exit", () => generatePrismaClient("sqlite"));
  const { connectDemoShop, demoDatabase, DEMO_SHOP } = await import("../lib/demo-shop");

  const { sandbox, sandboxUrl, service } = await startSlowService();
  const [database, emulator] = await Promise.all([freshRunDatabase("postgresql", "bench-pubsub"), startPubSubEmulator()]);
  const appDb = demoDatabase(database.url);
  const children: ChildProcess[] = [sandbox];
  let once = false;
  try {
    const { env, credentialsKey } = demoAppEnv({ databaseUrl: database.url, env: { LOG_LEVEL: "error" } });
    await connectDemoShop({ databaseUrl: database.url, credentialsKey, service, campaignUids: "1001" });
    // A minute's lease: a message waiting behind the flow control is not handed back for redelivery meanwhile.
    const { topic, subscription } = await createOrderTopic(emulator.client(PROJECT), "shopify-orders", { ackDeadlineSeconds: 60 });

    console.log(`PostgreSQL (private cluster), ${PROCESSES} consumers (npm run consume) and ${PROCESSES} workers, the Pub/Sub emulator; ${availableParallelism()} cores.`);
    const ids = new Set<string>();
    const messages = Array.from({ length: N }, (_, i) => {
      const order = shopifyOrder({ email: `pubsub-${i}-${randomBytes(3).toString("hex")}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
      ids.add(String(order.id));
      return { topic: "orders/paid", shop: DEMO_SHOP, body: JSON.stringify(order) };
    });
    const publishStart = performance.now();
    for (let i = 0; i < messages.length; i += 1_000) await publishAsShopify(topic, messages.slice(i, i + 1_000));
    const publishMs = performance.now() - publishStart;
    console.log(`${N} orders/paid messages published in ${(publishMs / 1000).toFixed(1)} s (${((N / publishMs) * 1000).toFixed(0)}/s); the service adds ${SERVICE_LATENCY_MS} ms to event/record. Load average ${load()}.`);

    const processEnv = { ...process.env, ...env, ...emulator.env };
    const consumers = Array.from({ length: PROCESSES }, () =>
      spawnConsumerProcess({ env: { ...processEnv, PUBSUB_SUBSCRIPTION: subscription }, stdio: ["ignore", "ignore", "inherit"] }),
    );
    const workers = Array.from({ length: PROCESSES }, () => spawnWorkerProcess({ env: processEnv, stdio: ["ignore", "ignore", "inherit"] }));
    children.push(...consumers, ...workers);
    // The postmaster: the parent of the backend that answers this query; its tree holds every backend.
    const postmaster = parentPid(Number((await appDb.$queryRawUnsafe<{ pid: number }[]>("SELECT pg_backend_pid() AS pid"))[0]!.pid));
    const kinds = {
      consumers: consumers.map((c) => c.pid!),
      workers: workers.map((w) => w.pid!),
      PostgreSQL: postmaster ? [postmaster] : [],
      emulator: [emulator.pid],
      "sandbox service": [sandbox.pid!],
    };
    const cpuBefore = cpuSeconds(kinds);
    const started = Date.now();
    const running = sampleRunningJobs(appDb);

    const stored = await until(() => appDb.orderRecord.count({ where: { shop: DEMO_SHOP } }), N);
    const storedLoad = load();
    const recorded = await until(() => appDb.orderRecord.count({ where: { shop: DEMO_SHOP, status: "recorded" } }), N);
    const cpuAfter = cpuSeconds(kinds);
    const drainLoad = load();
    const inFlight = await running.stop();

    // On the database's clock: the first order stored, the last stored, the last recorded at the service.
    const span = await appDb.orderRecord.aggregate({ where: { shop: DEMO_SHOP }, _min: { createdAt: true }, _max: { createdAt: true, recordedAt: true } });
    const first = span._min.createdAt?.getTime() ?? started;
    const storedMs = (span._max.createdAt?.getTime() ?? Infinity) - first;
    const drainMs = (span._max.recordedAt?.getTime() ?? Infinity) - first;
    const storedPerSecond = (stored / storedMs) * 1000;
    const drainPerSecond = (recorded / drainMs) * 1000;
    const ledger = (await (await fetch(`${sandboxUrl}/_sandbox/ledger`)).json()) as { commissions: { transaction_id: string | null }[] };
    const counts = new Map<string, number>();
    for (const c of ledger.commissions) if (c.transaction_id && ids.has(c.transaction_id)) counts.set(c.transaction_id, (counts.get(c.transaction_id) ?? 0) + 1);
    const jobs = await appDb.job.count({ where: { shop: DEMO_SHOP, kind: "order.record" } });
    once = stored === N && jobs === N && counts.size === N && [...counts.values()].every((n) => n === 1);

    console.log(`first message stored ${((first - started) / 1000).toFixed(1)} s after the consumers were started (their start-up)`);
    console.log(`stored: ${stored} of ${N} orders in ${(storedMs / 1000).toFixed(1)} s, ${storedPerSecond.toFixed(0)} messages/s (load average then ${storedLoad})`);
    console.log(`drain: ${recorded} recorded at the service ${(drainMs / 1000).toFixed(1)} s after the first was stored, ${drainPerSecond.toFixed(0)} orders/s (load average then ${drainLoad})`);
    console.log(`jobs running at once while a backlog was due (every 250 ms): mean ${inFlight.mean.toFixed(0)}, max ${inFlight.max} (the workers' concurrency allows ${PROCESSES} × ${processEnv.WORKER_CONCURRENCY ?? DEFAULT_WORKER_CONCURRENCY.process})`);
    console.log(`every order recorded exactly once: ${once ? "yes" : `NO (${counts.size} of ${N} at the service, duplicates ${[...counts.values()].filter((n) => n > 1).length}; ${stored} stored, ${jobs} jobs)`}`);
    console.log(`CPU seconds from the consumers' start to the drain's end: ${Object.keys(kinds).map((kind) => `${kind} ${(cpuAfter[kind]! - cpuBefore[kind]!).toFixed(1)}`).join(", ")}`);
    const peaks = [...consumers.map((c, i) => [`consumer ${i + 1}`, c.pid] as const), ...workers.map((w, i) => [`worker ${i + 1}`, w.pid] as const)].map(([name, pid]) => ({ name, mb: peakResidentMb(pid) }));
    console.log(`peak resident memory: ${peaks.map((p) => `${p.name} ${p.mb === undefined ? "?" : `${p.mb.toFixed(0)} MB`}`).join(", ")}`);
    const targets: [string, boolean][] = [
      ["stored >= 1,000 messages/s", storedPerSecond >= 1_000],
      ["drain >= 250 orders/s", drainPerSecond >= 250],
      ["every order exactly once", once],
      ["every process < 250 MB", peaks.every((p) => p.mb !== undefined && p.mb < 250)],
    ];
    console.log(`\ntargets: ${targets.map(([name, met]) => `${name} ${met ? "met" : "NOT met"}`).join("; ")}`);
  } finally {
    await appDb.$disconnect();
    const exits = children.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once("exit", resolve))));
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(exits);
    await emulator.stop();
    database.stop();
  }
  return once;
}
