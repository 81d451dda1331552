import "../admin/browser-env";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startAppServer, testAppEnv, type AppServer } from "../admin/app-server";

// server.mjs starts itself again, in place, with the memory settings only a
// process's start can set (a young generation of 16 MB for the main thread,
// two malloc arenas): `node server.mjs` and `npm start` run the same way.

let server: AppServer | undefined;
afterEach(() => server?.stop());

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");

describe.runIf(process.platform === "linux")("the production server's memory settings", () => {
  it("answers with its young generation and malloc arenas bounded, in the process it was started as, which still stops on SIGTERM", async () => {
    // startAppServer waits until the app answers.
    server = await startAppServer(testAppEnv());

    expect(cmdline(server.pid)).toContain("--max-semi-space-size=8");
    expect(environ(server.pid)).toContain("MALLOC_ARENA_MAX=2");
    expect(await server.terminate()).toBe(0);
  }, 60_000);

  it("keeps an operator's own setting", async () => {
    server = await startAppServer({ ...testAppEnv(), MALLOC_ARENA_MAX: "4" });

    expect(environ(server.pid)).toContain("MALLOC_ARENA_MAX=4");
    expect(environ(server.pid)).not.toContain("MALLOC_ARENA_MAX=2");
  }, 60_000);
});
