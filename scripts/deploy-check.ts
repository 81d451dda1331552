// npm run check:deploy [-- --db sqlite|postgresql]
//
// The deploy steps of docs/setup.md (which the README points to), run as written against a fresh database (a
// private PostgreSQL cluster, or a new SQLite file): `npm run setup`,
// `npm run build`, `npm start` with production settings; then a signed order
// webhook must be stored and a forged one refused (401, for the shop and for
// one without the app alike). CI runs it for both.
import "./lib/require-node";
import { spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { inheritedEnv, waitUntilAnswering } from "./lib/app-process";
import { freePort } from "./lib/free-port";
import { generatePrismaClient } from "./lib/prisma-client";
import { shopifyOrder } from "./lib/sample-orders";
import { shopifyWebhookHeaders } from "./lib/shopify-webhook";
import { startThrowawayPostgres, type ThrowawayPostgres } from "./throwaway-postgres";

const { values } = parseArgs({ options: { db: { type: "string", default: "postgresql" } } });
const onPostgres = values.db === "postgresql";

let pg: ThrowawayPostgres | undefined;
const folder = mkdtempSync(join(tmpdir(), "referral-bridge-deploy-"));
const port = await freePort();
// Production settings only: none of the development switches, even when this shell has one (production refuses them).
const env: NodeJS.ProcessEnv = {
  ...inheritedEnv(),
  NODE_ENV: "production",
  SHOPIFY_API_KEY: "deploy-check",
  SHOPIFY_API_SECRET: randomBytes(16).toString("hex"),
  SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
  CREDENTIALS_KEY: randomBytes(32).toString("base64"),
  PORT: String(port),
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
};

function step(command: string): void {
  console.log(`$ ${command}`);
  const [program, ...args] = command.split(" ");
  const result = spawnSync(program!, args, { env, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status})`);
}

let server: ReturnType<typeof spawn> | undefined;
let ok = false;
try {
  if (onPostgres) pg = await startThrowawayPostgres();
  env.DATABASE_URL = pg?.url ?? `file:${join(folder, "app.sqlite")}`;
  console.log(`Deploy steps on a fresh ${onPostgres ? "PostgreSQL cluster" : "SQLite file"}:`);
  step("npm run setup");
  step("npm run build");
  console.log("$ npm start");
  server = spawn("npm", ["start"], { env, stdio: ["ignore", "inherit", "inherit"], detached: true });
  const url = env.SHOPIFY_APP_URL!;
  await waitUntilAnswering(url, { timeoutMs: 60_000, gaveUp: () => (server!.exitCode !== null ? `npm start exited (${server!.exitCode})` : undefined) });

  // What install leaves behind: the shop's offline session (OAuth cannot run here).
  const { PrismaClient } = await import("@prisma/client");
  const { createAdapter } = await import("../app/platform/db/adapter.server");
  const db = new PrismaClient({ adapter: createAdapter(env.DATABASE_URL) });
  const shop = "deploy-check.myshopify.com";
  await db.session.create({ data: { id: `offline_${shop}`, shop, state: "deploy", isOnline: false, accessToken: "shpat_deploy_check" } });

  const order = shopifyOrder({ noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
  const raw = JSON.stringify(order);
  const send = (secret: string, to = shop) =>
    fetch(`${url}/webhooks/orders/paid`, { method: "POST", body: raw, headers: shopifyWebhookHeaders({ topic: "orders/paid", shop: to, raw, secret, webhookId: randomUUID() }) });
  const signed = await send(env.SHOPIFY_API_SECRET!);
  const notTheSecret = createHmac("sha256", "x").update("not the secret").digest("hex");
  const forged = await send(notTheSecret);
  // The same answer for a shop without the app: the signature comes first, so forged deliveries cannot tell which shops have it.
  const forgedElsewhere = await send(notTheSecret, "no-app-here.myshopify.com");
  // On SQLite the webhook is answered once kept and its job is made a moment later (decision 022).
  const storedBy = Date.now() + 5_000;
  let stored = 0;
  while ((stored = await db.job.count({ where: { shop, kind: "order.record" } })) === 0 && Date.now() < storedBy) await new Promise((resolve) => setTimeout(resolve, 50));
  await db.$disconnect();

  console.log(`signed webhook: ${signed.status}; forged webhook: ${forged.status} (for a shop without the app: ${forgedElsewhere.status}); jobs stored: ${stored}`);
  ok = signed.status === 200 && forged.status === 401 && forgedElsewhere.status === 401 && stored === 1;
} finally {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    process.kill(-server.pid, "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  }
  pg?.stop();
  rmSync(folder, { recursive: true, force: true });
  if (onPostgres) generatePrismaClient("sqlite");
}
console.log(ok ? `deploy steps on ${values.db}: they work as written` : `deploy steps on ${values.db}: FAILED`);
process.exit(ok ? 0 : 1);

