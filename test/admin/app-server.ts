// The built app (`remix build`) served by remix-serve as a child process, the
// way production runs it, on a free loopback port.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

function newestChange(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stat.mtimeMs);
}

/** Builds the app unless build/ is newer than every source file. */
export function ensureFreshBuild(): void {
  const built = path.join(repoRoot, "build/index.js");
  const sources = Math.max(newestChange(path.join(repoRoot, "app")), statSync(path.join(repoRoot, "remix.config.js")).mtimeMs);
  if (existsSync(built) && statSync(built).mtimeMs > sources) return;
  const result = spawnSync(process.execPath, [path.join(repoRoot, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error(`remix build failed:\n${result.stdout}\n${result.stderr}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface AppServer {
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Copies the build next to the repository's node_modules (so a rebuild by
 * someone else cannot change it under the test) and serves it.
 */
export async function startAppServer(env: Record<string, string>): Promise<AppServer> {
  const root = path.join(repoRoot, ".cache", `admin-browser-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, "public"), { recursive: true });
  cpSync(path.join(repoRoot, "build"), path.join(root, "build"), { recursive: true });
  cpSync(path.join(repoRoot, "public/build"), path.join(root, "public/build"), { recursive: true });

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(repoRoot, "node_modules/@remix-run/serve/dist/cli.js"), path.join(root, "build/index.js")],
    {
      cwd: root,
      env: { ...process.env, ...env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", SHOPIFY_APP_URL: origin },
      stdio: ["ignore", "pipe", "pipe"],
    }
  );
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app server exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${origin}/auth/login`, { redirect: "manual" });
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The app server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    origin,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
