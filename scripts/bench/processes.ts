// The bench's child processes: a TypeScript entry started with tsx, and what a process has held in memory.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { freePort } from "../lib/app-process";

/** What the benches' service adds to every `event/record`, as the real one takes under load. */
export const SERVICE_LATENCY_MS = 300;

/** The sandbox as the benches' referral service, slowed to SERVICE_LATENCY_MS on `event/record`. */
export async function startSlowService(): Promise<{ sandbox: ChildProcess; sandboxUrl: string; service: { baseUrl: string; username: string; token: string } }> {
  const sandboxPort = await freePort();
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = await startChild(["sandbox/main.ts"], { SANDBOX_PORT: String(sandboxPort) }, "listening");
  await fetch(`${sandboxUrl}/_sandbox/faults`, { method: "POST", body: JSON.stringify({ latencyMs: SERVICE_LATENCY_MS, operations: ["event/record"] }) });
  return { sandbox, sandboxUrl, service: { baseUrl: sandboxUrl, username: "demo", token: "demo-token" } };
}

/** Starts `args` with tsx and resolves once its output says `readyText`. */
export function startChild(args: string[], env: Record<string, string>, readyText: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes(readyText)) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${output}`)));
  });
}

/** The most memory the process has held resident so far (VmHWM), in MB; undefined once it has gone. */
export function peakResidentMb(pid: number | undefined): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
