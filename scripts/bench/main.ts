// npm run bench [-- N C]: acknowledgement latency and throughput of the order
// webhooks, queued (the app) against inline (event/record inside the
// request), side by side in one run, while the sandbox service adds 300 ms
// to every event/record. Checks that every order was recorded exactly once.
// The app runs as in production on SQLite: server.mjs with the worker in the
// same process.
import "../lib/require-node";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { buildIfNeeded, freePort, freshDatabase, startApp } from "../lib/app-process";
import { connectDemoShop, DEMO_SHOP } from "../lib/demo-shop";
import { shopifyOrder } from "../lib/sample-orders";
import { percentile, sendRequests, signedOrderRequest, type LoadResult } from "./load";

/** Long enough (about a second at full speed) that one garbage collection or checkpoint does not decide the figures. */
const N = Number(process.argv[2] ?? 10_000);
const C = Number(process.argv[3] ?? 200);
const SERVICE_LATENCY_MS = 300;
/** Unmeasured orders first, at full concurrency, so that start-up (JIT, first connections) is not counted. */
const WARM_UP = 3000;

function startChild(args: string[], env: Record<string, string>, readyText: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes(readyText)) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${output}`)));
  });
}

async function ledgerCounts(baseUrl: string, ids: Set<string>): Promise<Map<string, number>> {
  const ledger = (await (await fetch(`${baseUrl}/_sandbox/ledger`)).json()) as { commissions: { transaction_id: string | null }[] };
  const counts = new Map<string, number>();
  for (const c of ledger.commissions) if (c.transaction_id && ids.has(c.transaction_id)) counts.set(c.transaction_id, (counts.get(c.transaction_id) ?? 0) + 1);
  return counts;
}

/** Waits (10 minutes at most) until the service has a commission for every order id; returns the count per id. */
async function allRecorded(ids: Set<string>): Promise<Map<string, number>> {
  const started = performance.now();
  let counts = await ledgerCounts(sandboxUrl, ids);
  while (counts.size < ids.size && performance.now() - started < 600_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    counts = await ledgerCounts(sandboxUrl, ids);
  }
  return counts;
}

function orders(count: number) {
  return Array.from({ length: count }, (_, i) =>
    shopifyOrder({ email: `bench-${i}-${randomBytes(3).toString("hex")}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }),
  );
}

function summary(label: string, result: LoadResult) {
  return {
    label,
    p50: percentile(result.latenciesMs, 50),
    p99: percentile(result.latenciesMs, 99),
    perSecond: (result.latenciesMs.length / result.wallMs) * 1000,
    statuses: result.statuses,
  };
}

buildIfNeeded(console.log);
const sandboxPort = await freePort();
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const sandbox = await startChild(["sandbox/main.ts"], { SANDBOX_PORT: String(sandboxPort) }, "listening");
await fetch(`${sandboxUrl}/_sandbox/faults`, { method: "POST", body: JSON.stringify({ latencyMs: SERVICE_LATENCY_MS, operations: ["event/record"] }) });
const service = { baseUrl: sandboxUrl, username: "demo", token: "demo-token" };

const databaseUrl = await freshDatabase("bench");
// The app as `npm start` runs it on SQLite, its worker in the same process
// (WORKER_CONCURRENCY jobs side by side: 64 here, to drain the burst sooner).
const app = await startApp({ databaseUrl, env: { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? "64", LOG_LEVEL: "error" } });
await connectDemoShop({ databaseUrl, credentialsKey: app.credentialsKey, service, campaignUids: "1001" });

const baselinePort = await freePort();
const baseline = await startChild(
  ["scripts/bench/inline-baseline.ts"],
  { PORT: String(baselinePort), SHOPIFY_API_SECRET: app.secret, SERVICE_BASE_URL: service.baseUrl, SERVICE_USERNAME: service.username, SERVICE_TOKEN: service.token },
  "ready",
);

let failed = false;
try {
  console.log(`${N} signed orders/paid webhooks at concurrency ${C}; the service adds ${SERVICE_LATENCY_MS} ms to event/record.`);
  const appPort = Number(new URL(app.url).port);
  const requests = (bodies: unknown[]) =>
    bodies.map((body) => signedOrderRequest({ host: "127.0.0.1", shop: DEMO_SHOP, secret: app.secret, body }));
  const warmUp = orders(WARM_UP);
  await sendRequests(appPort, requests(warmUp), C);
  await sendRequests(baselinePort, requests(orders(WARM_UP)), C);
  await allRecorded(new Set(warmUp.map((o) => String(o.id))));
  console.log(`(after ${WARM_UP} unmeasured orders to each, all recorded)\n`);

  const queuedOrders = orders(N);
  const queuedRequests = requests(queuedOrders);
  const queuedStart = performance.now();
  const queued = await sendRequests(appPort, queuedRequests, C);
  const counts = await allRecorded(new Set(queuedOrders.map((o) => String(o.id))));
  const allRecordedMs = performance.now() - queuedStart;

  const inline = await sendRequests(baselinePort, requests(orders(N)), C);

  const rows = [summary("queued (the app)", queued), summary("inline baseline", inline)];
  console.log("design             ack p50    ack p99    accepted/s   statuses");
  for (const r of rows) {
    console.log(`${r.label.padEnd(18)} ${r.p50.toFixed(1).padStart(6)} ms ${r.p99.toFixed(1).padStart(7)} ms ${r.perSecond.toFixed(0).padStart(10)}   ${JSON.stringify(r.statuses)}`);
  }
  const ratio = rows[0]!.perSecond / rows[1]!.perSecond;
  const once = [...counts.values()].every((n) => n === 1) && counts.size === N;
  console.log(`\naccepted/s ratio, queued : inline = ${ratio.toFixed(1)} : 1`);
  console.log(`time until all ${N} queued orders were recorded at the service: ${(allRecordedMs / 1000).toFixed(1)} s`);
  console.log(`every order recorded exactly once: ${once ? "yes" : `NO (${counts.size} of ${N} recorded, duplicates: ${[...counts.values()].filter((n) => n > 1).length})`}`);
  console.log(`targets: p99 ack < 50 ms ${rows[0]!.p99 < 50 ? "met" : "NOT met"}; accepted/s >= 20x inline ${ratio >= 20 ? "met" : "NOT met"}`);
  failed = !once || queued.statuses[200] !== N;
} finally {
  baseline.kill();
  sandbox.kill();
  await app.stop();
}
process.exit(failed ? 1 : 0);
