// The built app served the way production runs it (scripts/lib/app-process.ts),
// from a copy of the build so that a rebuild by someone else cannot change it
// under the test.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfNeeded, serveBuild } from "../../scripts/lib/app-process";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Builds the app unless build/ is newer than every source file. */
export function ensureFreshBuild(): void {
  buildIfNeeded(() => undefined);
}

export interface AppServer {
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startAppServer(env: Record<string, string>): Promise<AppServer> {
  const root = path.join(repoRoot, ".cache", `admin-browser-${process.pid}`);
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
