import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_DEFAULTS } from "../../app/wiring/env.server";
import { freePort } from "../../scripts/lib/free-port";
import { repoRoot } from "../entry/admin/app-server";

// `npm start` and `npm run worker` on the built app, as a host that forgot NODE_ENV starts them: production's
// checks apply. Both refuse at start-up, before opening the database or a port, so no database is needed.

/** Runs an npm script with this environment and nothing of this process's own but PATH and HOME; its exit code and output. */
function run(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", script], { cwd: repoRoot, env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env } as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const hostEnv = async () => ({
  SHOPIFY_API_KEY: "client-id",
  SHOPIFY_API_SECRET: randomBytes(16).toString("hex"),
  SHOPIFY_APP_URL: "https://referrals.example.com",
  DATABASE_URL: "file:./data/never-opened.sqlite",
  PORT: String(await freePort()),
  HOST: "127.0.0.1",
});

describe("production unless development is asked for (built app)", () => {
  it("npm start without NODE_ENV refuses the development key and SHOPIFY_ADMIN_API_ORIGIN, saying why and how to ask for development", async () => {
    const { code, output } = await run("start", { ...(await hostEnv()), CREDENTIALS_KEY: DEVELOPMENT_DEFAULTS.CREDENTIALS_KEY, SHOPIFY_ADMIN_API_ORIGIN: "http://127.0.0.1:9" });
    expect(code).toBe(1);
    expect(output).toContain("The environment is not valid:\n  - CREDENTIALS_KEY is the development key; production needs its own secret key\n  - SHOPIFY_ADMIN_API_ORIGIN is for development only");
    expect(output).toContain("NODE_ENV is not set, so this is a production process; for development with its defaults, set NODE_ENV=development");
    // The problems, not a stack trace.
    expect(output).not.toMatch(/\n\s+at /);
  }, 90_000);

  it("npm run worker without NODE_ENV refuses the development key", async () => {
    const { code, output } = await run("worker", { ...(await hostEnv()), CREDENTIALS_KEY: DEVELOPMENT_DEFAULTS.CREDENTIALS_KEY });
    expect(code).not.toBe(0);
    expect(output).toContain("CREDENTIALS_KEY is the development key; production needs its own secret key");
    expect(output).toContain("NODE_ENV is not set, so this is a production process");
  }, 90_000);
});
