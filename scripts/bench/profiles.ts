// `npm run bench -- --cpu-profile`: the app and worker processes run with
// --cpu-prof and write a .cpuprofile per JavaScript thread when they exit.
// This sums each function's self time over the samples taken during the
// measured phase (V8 stamps samples with the monotonic clock, the one
// process.hrtime reads here), by process kind and thread, and prints the
// functions that took the most.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The monotonic clock in microseconds, as V8 stamps a profile's samples. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function functionKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\//, "").replace(`${process.cwd()}/`, "");
  if (!where) return functionName || "(anonymous)";
  // Anonymous functions of one file are told apart by their line.
  return functionName ? `${functionName}  ${where}` : `(anonymous)  ${where}:${lineNumber + 1}`;
}

/** Self time in ms by function, of the samples taken within [from, to] (microseconds, monotonic). */
function selfTimes(profile: CpuProfile, from: number, to: number): Map<string, number> {
  const keys = new Map(profile.nodes.map((node) => [node.id, functionKey(node)]));
  const times = new Map<string, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const next = i + 1 < profile.samples.length ? at + (profile.timeDeltas[i + 1] ?? 0) : profile.endTime;
    if (at < from || at > to) continue;
    const key = keys.get(profile.samples[i]!)!;
    times.set(key, (times.get(key) ?? 0) + (next - at) / 1000);
  }
  return times;
}

/**
 * Prints the `top` functions by self time per process kind and thread, from
 * the profiles in `dir` (named CPU.<date>.<time>.<pid>.<threadId>.<n>.cpuprofile).
 */
export function printProfiles(dir: string, kinds: Map<number, string>, window: { from: number; to: number }, top = 25): void {
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"));
  } catch {
    // none written
  }
  console.log(
    `\nCPU profiles (${dir}): self time in the measured phase, by process kind and thread. A profile samples wall time: ` +
      `on a busy machine a thread waiting for a core is counted in the function it was in, so read the shares, and the CPU seconds above.`,
  );
  if (files.length === 0) console.log("  none was written (did the processes exit normally?)");
  const groups = new Map<string, { times: Map<string, number>; profiles: number }>();
  for (const file of files) {
    const [, , , pid, threadId] = file.split(".");
    const kind = kinds.get(Number(pid));
    if (!kind) continue;
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
    const name = `${kind}, ${threadId === "0" ? "main thread" : `JS thread ${threadId}`}`;
    const group = groups.get(name) ?? { times: new Map<string, number>(), profiles: 0 };
    group.profiles++;
    for (const [key, ms] of selfTimes(profile, window.from, window.to)) group.times.set(key, (group.times.get(key) ?? 0) + ms);
    groups.set(name, group);
  }
  for (const [name, { times, profiles }] of [...groups.entries()].sort()) {
    // Idle is time the thread waited, not CPU it used.
    const busy = [...times.entries()].filter(([key]) => key !== "(idle)");
    const total = busy.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`\n  ${name} (${profiles} profile${profiles > 1 ? "s" : ""}): ${(total / 1000).toFixed(2)} s sampled, not idle; top ${top} by self time`);
    for (const [key, ms] of busy.sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`    ${ms.toFixed(0).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
    }
  }
}
