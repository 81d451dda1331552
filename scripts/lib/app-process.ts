// Builds (when the build is older than the sources) and starts the built app
// with server.mjs, as production runs it, on a fresh database, for the demo,
// the benchmark and the fault runs. Those call the sandbox service on this
// machine, which only a development process may (app/wiring/env.server.ts), so they
// run the production build with NODE_ENV=development.
import { execFileSync, spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations } from "../../app/platform/db/migrate.server";
import { DEVELOPMENT_ONLY_SWITCHES } from "../../app/wiring/env.server";
import { startThrowawayPostgres } from "../throwaway-postgres";
import { freePort } from "./free-port";

export { freePort };

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

export function buildIfNeeded(log: (line: string) => void): void {
  const built = existsSync("build/index.js") ? statSync("build/index.js").mtimeMs : 0;
  if (built > Math.max(newestMtime("app"), newestMtime("remix.config.js"))) return;
  log("building the app (npm run build)...");
  // A production build whatever the caller's NODE_ENV (a test runs with "test").
  execFileSync("npm", ["run", "build"], { stdio: "pipe", env: { ...process.env, NODE_ENV: "production" } });
}

/** A fresh SQLite database in data/<name>/, migrated the way production is (npm run setup). */
export async function freshDatabase(name: string): Promise<string> {
  const folder = join("data", name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const url = `file:./${folder}/app.sqlite`;
  await applyMigrations(url);
  return url;
}

/** A fresh, migrated database for a run: a private PostgreSQL cluster (with `postgresSettings`), or SQLite in data/<name>/. */
export async function freshRunDatabase(
  kind: "sqlite" | "postgresql",
  name: string,
  options: { postgresSettings?: string[] } = {},
): Promise<{ url: string; stop(): void }> {
  if (kind === "sqlite") return { url: await freshDatabase(name), stop: () => {} };
  const postgres = await startThrowawayPostgres({ settings: options.postgresSettings });
  await applyMigrations(postgres.url);
  return postgres;
}

/** Waits until the app at `url` answers (its login page, below 500); `gaveUp` names a reason to stop waiting early. */
export async function waitUntilAnswering(url: string, options: { timeoutMs: number; gaveUp?: () => string | undefined }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const reason = options.gaveUp?.();
    if (reason) throw new Error(reason);
    try {
      if ((await fetch(`${url}/auth/login`, { redirect: "manual" })).status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The app did not answer within ${options.timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface ServedBuild {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * This process's environment without the development-only switches: a served
 * app or worker gets one only when its caller asks for it in so many words,
 * never because the caller (a test process, a developer's shell) has it.
 */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(DEVELOPMENT_ONLY_SWITCHES)) delete env[name];
  return env;
}

/** How an npm script runs a built entry of the app: `[NAME=value ...] node [--flags] <entry>`. */
export interface NodeCommand {
  env: Record<string, string>;
  nodeArgs: string[];
}

function scriptCommand(name: string, entry: string, cwd: string): NodeCommand {
  const script = String(JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")).scripts[name]);
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=\S*$/.test(words[0] ?? "")) {
    const [key, value] = words.shift()!.split("=") as [string, string];
    env[key] = value;
  }
  if (words.shift() !== "node" || words.at(-1) !== entry || words.slice(0, -1).some((word) => !word.startsWith("--"))) {
    throw new Error(`package.json's ${name} script is not "[NAME=value ...] node [--flags] ${entry}": ${script}`);
  }
  return { env, nodeArgs: words.slice(0, -1) };
}

/**
 * How `npm start` runs the server: package.json's start script, read as
 * `[NAME=value ...] node [flags] server.mjs`, so that a build served here
 * has the memory settings production has.
 */
export const startCommand = (cwd = process.cwd()): NodeCommand => scriptCommand("start", "server.mjs", cwd);

const WORKER_ENTRY = "build/worker.mjs";

/** How `npm run worker` runs a worker process, the same way. */
export const workerCommand = (cwd = process.cwd()): NodeCommand => scriptCommand("worker", WORKER_ENTRY, cwd);

type SpawnOptions = { env: NodeJS.ProcessEnv; stdio: StdioOptions; cwd?: string };

/** Runs `entry` of the build in `cwd` as its package.json script runs it (the caller's `env` wins, as serveBuild's does). */
function spawnScript(command: (cwd: string) => NodeCommand, entry: string, options: SpawnOptions): ChildProcess {
  const cwd = options.cwd ?? process.cwd();
  const { env, nodeArgs } = command(cwd);
  return spawn(process.execPath, [...nodeArgs, join(cwd, entry)], { cwd, env: { ...env, ...options.env }, stdio: options.stdio });
}

/** A job worker process (`npm run worker`) on the build in `cwd`, with the worker script's settings. */
export const spawnWorkerProcess = (options: SpawnOptions): ChildProcess => spawnScript(workerCommand, WORKER_ENTRY, options);

const CONSUMER_ENTRY = "build/consume.mjs";

/** How `npm run consume` runs the Pub/Sub consumer. */
export const consumerCommand = (cwd = process.cwd()): NodeCommand => scriptCommand("consume", CONSUMER_ENTRY, cwd);

/** A Pub/Sub consumer process (`npm run consume`) on the build in `cwd`, as spawnWorkerProcess starts a worker. */
export const spawnConsumerProcess = (options: SpawnOptions): ChildProcess => spawnScript(consumerCommand, CONSUMER_ENTRY, options);

/**
 * Serves a build with server.mjs on a free loopback port, as production does,
 * and waits until it answers. SHOPIFY_APP_URL is set to its address.
 */
export async function serveBuild(options: {
  buildIndex: string;
  cwd?: string;
  env: Record<string, string>;
  port?: number;
  /** Given the process as soon as it is spawned (a test reads its output from its first line). */
  spawned?: (child: ChildProcess) => void;
  /** Extra flags for node (a test's --import); package.json's start flags come first. */
  nodeArgs?: string[];
}): Promise<ServedBuild> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const start = startCommand(options.cwd);
  const child = spawn(process.execPath, [...start.nodeArgs, ...(options.nodeArgs ?? []), join(options.cwd ?? process.cwd(), "server.mjs"), options.buildIndex], {
    cwd: options.cwd,
    env: { ...inheritedEnv(), ...start.env, ...options.env, PORT: String(port), HOST: "127.0.0.1", SHOPIFY_APP_URL: url } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  options.spawned?.(child);
  try {
    // An app that crashes is reported at once (gaveUp); one that is slow to start is waited for. Its start
    // costs about 3 s of CPU, which took over 30 s on a 2-core machine running two test files and browsers.
    await waitUntilAnswering(url, { timeoutMs: 90_000, gaveUp: () => (child.exitCode !== null ? `The app exited during start-up (${child.exitCode})` : undefined) });
  } catch (error) {
    throw new Error(`${(error as Error).message}:\n${output}`);
  }
  return {
    url,
    process: child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}

export interface RunningApp extends ServedBuild {
  /** The environment the app runs with (a worker process needs the same). */
  env: Record<string, string>;
  secret: string;
  credentialsKey: string;
}

/**
 * The built app with fresh secrets, on the given database, calling the
 * sandbox service on this machine: a development process (NODE_ENV=development),
 * since production refuses ALLOW_LOOPBACK_SERVICE. Its worker processes take
 * the same environment.
 */
export async function startApp(options: { databaseUrl: string; env?: Record<string, string>; port?: number }): Promise<RunningApp> {
  const { env, secret, credentialsKey } = demoAppEnv(options);
  const served = await serveBuild({ buildIndex: "build/index.js", env, port: options.port });
  return { ...served, env: { ...env, SHOPIFY_APP_URL: served.url }, secret, credentialsKey };
}

/** The environment startApp serves the build with (fresh secrets), for processes of the app that serve nothing (workers, consumers). */
export function demoAppEnv(options: { databaseUrl: string; env?: Record<string, string> }): { env: Record<string, string>; secret: string; credentialsKey: string } {
  const secret = randomBytes(16).toString("hex");
  const credentialsKey = randomBytes(32).toString("base64");
  const env: Record<string, string> = {
    NODE_ENV: "development",
    SHOPIFY_API_KEY: "referral-bridge-demo",
    SHOPIFY_API_SECRET: secret,
    CREDENTIALS_KEY: credentialsKey,
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: "warn",
    // The sandbox runs on 127.0.0.1 over http: the development setting lets the app call it.
    ALLOW_LOOPBACK_SERVICE: "true",
    ...options.env,
  };
  return { env, secret, credentialsKey };
}
