// Measuring in the page with the web-vitals library (its attribution build),
// installed before any of the page's own scripts run, and a CPU profile of
// an interaction summed by function.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export interface PageVitals {
  lcp: number | null;
  lcpElement: string | null;
  cls: number;
  clsElement: string | null;
  /** null: no interaction took 16 ms or more (the least Event Timing reports). */
  inp: number | null;
  inpParts: { inputDelay: number; processing: number; presentation: number } | null;
  /** When the last long task (over 50 ms) ended, from the start of navigation: the page is busy until then (hydrating, mostly). */
  quietSince: number;
}

export interface LoadCost {
  /** The document and every loopback request. */
  requests: number;
  /** Requests to anywhere else, which the benchmark blocks (App Bridge's CDN script among them). */
  blocked: number;
  jsBytes: number;
}

declare global {
  interface Window {
    __vitals: PageVitals;
  }
}

/** The script given to page.addInitScript: web-vitals and the callbacks that keep its latest values. */
export function vitalsInitScript(): string {
  // The package exports no path to its IIFE build, which sits beside the one it does export.
  const library = readFileSync(join(dirname(require.resolve("web-vitals/attribution")), "web-vitals.attribution.iife.js"), "utf8");
  // Plain JavaScript: it runs in the page as written.
  const register = `{
    window.__vitals = { lcp: null, lcpElement: null, cls: 0, clsElement: null, inp: null, inpParts: null, quietSince: 0 };
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) window.__vitals.quietSince = Math.max(window.__vitals.quietSince, task.startTime + task.duration);
    }).observe({ type: "longtask", buffered: true });
    const all = { reportAllChanges: true };
    webVitals.onLCP((m) => Object.assign(window.__vitals, { lcp: m.value, lcpElement: m.attribution.target ?? null }), all);
    webVitals.onCLS((m) => {
      const source = m.attribution.largestShiftSource;
      const moved = source
        ? " (from y " + Math.round(source.previousRect.y) + ", height " + Math.round(source.previousRect.height) + " to y " + Math.round(source.currentRect.y) + ", height " + Math.round(source.currentRect.height) + ")"
        : "";
      Object.assign(window.__vitals, { cls: m.value, clsElement: m.attribution.largestShiftTarget ? m.attribution.largestShiftTarget + moved : null });
    }, all);
    webVitals.onINP((m) => Object.assign(window.__vitals, {
      inp: m.value,
      inpParts: { inputDelay: m.attribution.inputDelay, processing: m.attribution.processingDuration, presentation: m.attribution.presentationDelay },
    }), { ...all, durationThreshold: 16 });
  }`;
  return `${library}\n${register}`;
}

/** What the page loaded, from Resource Timing: run in the page. */
export function loadCostInPage(): LoadCost {
  let requests = 1;
  let blocked = 0;
  let jsBytes = 0;
  for (const entry of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
    if (new URL(entry.name).origin !== location.origin) {
      blocked += 1;
      continue;
    }
    requests += 1;
    if (entry.initiatorType === "script" || /\.m?js(\?|$)/.test(entry.name)) jsBytes += entry.transferSize;
  }
  return { requests, blocked, jsBytes };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions that took the most time of their own in a CPU profile, with their share. */
export function topSelfTime(profile: CpuProfile, count = 10): { name: string; ms: number; share: number }[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const file = frame.url.split("/").pop()?.split("?")[0] ?? "";
    const name = `${frame.functionName || "(anonymous)"}${file ? ` ${file}:${frame.lineNumber + 1}` : ""}`;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    totals.set(name, (totals.get(name) ?? 0) + ms);
    total += ms;
  });
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms, share: total > 0 ? ms / total : 0 }));
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * The renderer main thread's time in a Chrome trace by kind of work (style,
 * layout, paint, script, ...), each event's own time less the events inside it.
 */
export function mainThreadBreakdown(trace: { traceEvents: TraceEvent[] }): { name: string; ms: number }[] {
  const main = trace.traceEvents.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) return [];
  const events = trace.traceEvents
    .filter((e) => e.ph === "X" && e.pid === main.pid && e.tid === main.tid && (e.dur ?? 0) > 0)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const own = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const event of events) {
    while (stack.length > 0 && stack.at(-1)!.end <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) own.set(parent.name, (own.get(parent.name) ?? 0) - event.dur!);
    own.set(event.name, (own.get(event.name) ?? 0) + event.dur!);
    stack.push({ end: event.ts + event.dur!, name: event.name });
  }
  return [...own]
    .map(([name, us]) => ({ name, ms: us / 1000 }))
    .filter((e) => e.ms >= 1)
    .sort((a, b) => b.ms - a.ms);
}
