import "../entry/admin/browser-env";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerCommand, inheritedEnv, spawnWorkerProcess, startCommand, workerCommand } from "../../scripts/lib/app-process";
import { repoRoot, startAppServer, startTestAppServer, testAppEnv, type AppServer } from "../entry/admin/app-server";

// `npm start` bounds the server's memory (glibc's malloc arenas); the tests,
// the bench and the fault runs serve the build the same way, read from
// package.json's start script. `npm run worker` has the same settings.

let server: AppServer | undefined;
beforeAll(async () => {
  server = await startTestAppServer();
}, 120_000);
afterAll(() => server?.stop());

const procFile = (pid: number, name: string) => readFileSync(`/proc/${pid}/${name}`, "latin1").split("\0");

describe("the start command", () => {
  it("bounds the process's malloc arenas", () => {
    expect(startCommand().env.MALLOC_ARENA_MAX).toMatch(/^\d+$/);
  });

  it("is how a served build runs", () => {
    const { env, nodeArgs } = startCommand();
    const environment = procFile(server!.pid, "environ");
    for (const [name, value] of Object.entries(env)) expect(environment).toContain(`${name}=${value}`);
    const commandLine = procFile(server!.pid, "cmdline");
    const script = commandLine.findIndex((word) => word.endsWith("server.mjs"));
    expect(commandLine.slice(1, script)).toEqual(nodeArgs);
  });

  it("bounds the main thread's new space (two semi-spaces) at 32 MB, while the app's threads keep their own limits", async () => {
    // Node 26's V8 lets a busy main thread's new space grow to 64 MB (Node 24's: 128 MB, Node 22's: 32 MB).
    const folder = mkdtempSync(path.join(tmpdir(), "young-generation-"));
    const report = path.join(folder, "report.json");
    const probed = await startAppServer({ ...testAppEnv(), YOUNG_GENERATION_REPORT: report }, repoRoot, {
      nodeArgs: ["--import", path.join(repoRoot, "test/app/support/young-generation-probe.mjs")],
    });
    try {
      process.kill(probed.pid, "SIGUSR2");
      await expect.poll(() => existsSync(report), { timeout: 30_000 }).toBe(true);
      const { mainMb, threadMb } = JSON.parse(readFileSync(report, "utf8")) as { mainMb: number; threadMb: number };
      expect(mainMb).toBeGreaterThanOrEqual(16);
      expect(mainMb).toBeLessThanOrEqual(32);
      // A thread that asks for a 12 MB young generation gets an 8 MB new space (two 4 MB semi-spaces), not the start command's.
      expect(threadMb).toBeLessThanOrEqual(8);
    } finally {
      await probed.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses a start script it cannot read as [NAME=value ...] node [--flags] server.mjs", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "start-command-"));
    try {
      for (const start of ["node server.mjs && echo done", "tsx server.mjs", "node --inspect app.mjs"]) {
        writeFileSync(path.join(folder, "package.json"), JSON.stringify({ scripts: { start } }));
        expect(() => startCommand(folder)).toThrow(/start script/);
      }
      writeFileSync(path.join(folder, "package.json"), JSON.stringify({ scripts: { start: "A=1 B_C=two node --x=1 --y server.mjs" } }));
      expect(startCommand(folder)).toEqual({ env: { A: "1", B_C: "two" }, nodeArgs: ["--x=1", "--y"] });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("gives worker and consumer processes the server's memory settings but a new space up to 64 MB, and is how they run", () => {
    // A process of jobs answers no webhook: a larger new space spends less CPU collecting, within the memory bound.
    const otherThanYoungMaximum = (args: string[]) => args.filter((arg) => !arg.startsWith("--max-semi-space-size="));
    expect(workerCommand().env).toEqual(startCommand().env);
    expect(otherThanYoungMaximum(workerCommand().nodeArgs)).toEqual(otherThanYoungMaximum(startCommand().nodeArgs));
    expect(workerCommand().nodeArgs).toContain("--max-semi-space-size=32");
    expect(consumerCommand()).toEqual(workerCommand());
    const worker = spawnWorkerProcess({ env: { ...inheritedEnv(), DATABASE_URL: process.env.DATABASE_URL }, stdio: "ignore" });
    try {
      const commandLine = procFile(worker.pid!, "cmdline");
      expect(commandLine.slice(1, commandLine.findIndex((word) => word.endsWith("worker.mjs")))).toEqual(workerCommand().nodeArgs);
      const environment = procFile(worker.pid!, "environ");
      for (const [name, value] of Object.entries(workerCommand().env)) expect(environment).toContain(`${name}=${value}`);
    } finally {
      worker.kill("SIGKILL");
    }
  });
});
