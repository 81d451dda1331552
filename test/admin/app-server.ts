// The built app served the way production runs it (scripts/lib/app-process.ts),
// from a copy of the build so that a rebuild by someone else cannot change it
// under the test. The test run's global set-up builds it when it is stale.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serveBuild } from "../../scripts/lib/app-process";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export interface AppServer {
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The built app on this test's database and secrets, with no worker in its
 * process (the test runs jobs itself when it wants them run).
 */
export function startTestAppServer(): Promise<AppServer> {
  // An absolute path for SQLite: the server's working directory differs.
  const testDatabase = process.env.DATABASE_URL!;
  const databaseUrl = testDatabase.startsWith("file:") ? `file:${path.resolve(repoRoot, testDatabase.slice("file:".length))}` : testDatabase;
  return startAppServer({
    SHOPIFY_API_KEY: process.env.SHOPIFY_API_KEY!,
    SHOPIFY_API_SECRET: process.env.SHOPIFY_API_SECRET!,
    CREDENTIALS_KEY: process.env.CREDENTIALS_KEY!,
    DATABASE_URL: databaseUrl,
    WORKER_IN_PROCESS: "false",
    LOG_LEVEL: "warn",
  });
}

export async function startAppServer(env: Record<string, string>): Promise<AppServer> {
  const root = path.join(repoRoot, ".cache", `built-app-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, "public"), { recursive: true });
  cpSync(path.join(repoRoot, "build"), path.join(root, "build"), { recursive: true });
  cpSync(path.join(repoRoot, "public/build"), path.join(root, "public/build"), { recursive: true });

  const served = await serveBuild({ buildIndex: path.join(root, "build/index.js"), cwd: root, env: { ...env, NODE_ENV: "production" } });
  return {
    origin: served.url,
    output: served.output,
    async stop() {
      await served.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
