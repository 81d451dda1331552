// The built app served the way production runs it (scripts/lib/app-process.ts),
// from a copy of the deploy so that a rebuild by someone else cannot change it
// under the test. The test run's global set-up builds it when it is stale.
// It runs with NODE_ENV=production unless the test lets it reach the sandbox
// service or the Admin stand-in on this machine, which production refuses
// (app/wiring/env.server.ts): then it is a development process.
import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEVELOPMENT_ONLY_SWITCHES, switchedOn } from "../../../app/wiring/env.server";
import { nextReconcile } from "../../../app/domains/order-sync/reconcile.server";
import { serveBuild } from "../../../scripts/lib/app-process";
import { TEST_SHOP } from "../../support/shopify-requests";
import { watchServedOutput } from "../../support/served-output";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface AppServer {
  origin: string;
  /** The server's process id. */
  pid: number;
  output(): string;
  /** null while the process runs. */
  exitCode(): number | null;
  /** Sends SIGTERM, as a deploy or a scale-down does, and resolves with the exit code. */
  terminate(): Promise<number | null>;
  /** SIGKILL, as a crash or an out-of-memory kill does: nothing is finished or released. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** The environment of the built app on this test's database and secrets, with nothing else of this machine. */
export function testAppEnv(): Record<string, string> {
  // An absolute path for SQLite: the server's working directory differs.
  const testDatabase = process.env.DATABASE_URL!;
  const databaseUrl = testDatabase.startsWith("file:") ? `file:${path.resolve(repoRoot, testDatabase.slice("file:".length))}` : testDatabase;
  return {
    SHOPIFY_API_KEY: process.env.SHOPIFY_API_KEY!,
    SHOPIFY_API_SECRET: process.env.SHOPIFY_API_SECRET!,
    CREDENTIALS_KEY: process.env.CREDENTIALS_KEY!,
    DATABASE_URL: databaseUrl,
    WORKER_IN_PROCESS: "false",
    LOG_LEVEL: "warn",
    RECONCILE_INTERVAL_MS: String(quietReconcileInterval()),
  };
}

/**
 * An interval of about a day whose reconciliation pass of the test shop is
 * more than an hour away: with the default (5 minutes), a served app with
 * its worker ran the pass whenever a test crossed the shop's slot (1 run in
 * 75 of a 4-second test), reaching for an Admin API that tests do not
 * serve. Tests of the reconciliation set their own.
 */
function quietReconcileInterval(now = new Date()): number {
  const DAY = 86_400_000;
  for (let intervalMs = DAY; ; intervalMs -= 3_600_000) {
    if (nextReconcile(TEST_SHOP, now, intervalMs).runAt.getTime() - now.getTime() > 3_600_000) return intervalMs;
  }
}

/** testAppEnv, and the app calls the sandbox service on this machine itself (its worker, the admin pages, the storefront). */
export function sandboxAppEnv(): Record<string, string> {
  return { ...testAppEnv(), ALLOW_LOOPBACK_SERVICE: "true" };
}

/**
 * The built app on this test's database and secrets, with no worker in its
 * process (the test runs jobs itself when it wants them run), in production
 * mode. `from`: a checkout other than this one, built (to compare a change
 * with before it).
 */
export function startTestAppServer(from?: string): Promise<AppServer> {
  return startAppServer(testAppEnv(), from);
}

/** startTestAppServer for a test whose app calls the sandbox service itself: a development process. */
export function startSandboxAppServer(from?: string): Promise<AppServer> {
  return startAppServer(sandboxAppEnv(), from);
}

/** production, as deployed, unless the environment turns on a switch that only development may. */
function nodeEnvFor(env: Record<string, string>): "production" | "development" {
  const development = (Object.keys(DEVELOPMENT_ONLY_SWITCHES) as (keyof typeof DEVELOPMENT_ONLY_SWITCHES)[]).some((name) => switchedOn(env, name));
  return development ? "development" : "production";
}

/**
 * Serves a copy of what a deploy needs, and nothing else: build/,
 * public/build/, prisma/, package.json and server.mjs, with the project's
 * node_modules linked in. It sits outside the project, so no TypeScript
 * source is there to fall back on.
 */
export async function startAppServer(env: Record<string, string>, from = repoRoot, options: { nodeArgs?: string[] } = {}): Promise<AppServer> {
  const root = path.join(tmpdir(), `referral-bridge-deploy-${process.pid}-${randomUUID().slice(0, 8)}`);
  mkdirSync(path.join(root, "public"), { recursive: true });
  for (const part of ["build", "public/build", "prisma", "package.json", "server.mjs"]) {
    cpSync(path.join(from, part), path.join(root, part), { recursive: true });
  }
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"), "dir");

  const served = await serveBuild({
    buildIndex: path.join(root, "build/index.js"),
    cwd: root,
    env: { ...env, NODE_ENV: nodeEnvFor(env) },
    nodeArgs: options.nodeArgs,
    spawned: (child) => watchServedOutput(`served app ${child.pid}`, child),
  });
  return {
    origin: served.url,
    pid: served.process.pid!,
    output: served.output,
    exitCode: () => served.process.exitCode,
    terminate: () =>
      new Promise((resolve) => {
        served.process.once("exit", (code) => resolve(code));
        served.process.kill("SIGTERM");
      }),
    kill: () =>
      new Promise((resolve) => {
        if (served.process.exitCode !== null || served.process.signalCode !== null) return resolve();
        served.process.once("exit", () => resolve());
        served.process.kill("SIGKILL");
      }),
    async stop() {
      await served.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
