import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// A long-running process logs a promise rejection nobody handled and goes on.

function runWith(guard: boolean) {
  const script = `
    import { logStrayRejections } from "./app/wiring/stray-rejections.server.ts";
    import { createLogger } from "./app/platform/logger/logger.server.ts";
    ${guard ? 'logStrayRejections(createLogger({ level: "error" }));' : ""}
    Promise.reject(new Error("a library's stray rejection"));
    setTimeout(() => console.log("still running"), 50);
  `;
  return spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
}

describe("stray promise rejections", () => {
  it("are logged and the process goes on", () => {
    const run = runWith(true);
    expect(run.stdout).toContain("unhandled promise rejection; the process goes on");
    expect(run.stdout).toContain("a library's stray rejection");
    expect(run.stdout).toContain("still running");
    expect(run.status).toBe(0);
  });

  it("end a process without the guard (what the guard prevents)", () => {
    const run = runWith(false);
    expect(run.stdout).not.toContain("still running");
    expect(run.status).toBe(1);
  });
});
