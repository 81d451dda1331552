import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const LAYERS = new Set(["entry", "domains", "platform"]);

/** A folder of the graph: a top-level folder or root file of app/, or a layer folder's subfolder (domains/referrals). */
export function folderOf(file: string): string | null {
  if (!file.startsWith("app/")) return null;
  const parts = file.slice("app/".length).split("/");
  if (parts.length === 1) return parts[0]!;
  return LAYERS.has(parts[0]!) && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** The folders each folder imports, from the modules' imports. */
export function folderGraph(imports: Array<{ from: string; to: string }>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (!a || !b || a === b) continue;
    graph.set(a, (graph.get(a) ?? new Set()).add(b));
  }
  return graph;
}

export function mutualPairs(graph: Map<string, Set<string>>): string[] {
  return [...graph].flatMap(([a, tos]) => [...tos].filter((b) => a < b && graph.get(b)?.has(a)).map((b) => `${a} <-> ${b}`));
}

/** The longest chain of folders each importing the next (the graph has no cycle: mutualPairs and no-circular see to it). */
export function longestChain(graph: Map<string, Set<string>>): string[] {
  const memo = new Map<string, string[]>();
  const visiting = new Set<string>();
  const from = (node: string): string[] => {
    const known = memo.get(node);
    if (known) return known;
    if (visiting.has(node)) throw new Error(`The folders import each other in a cycle through ${node}`);
    visiting.add(node);
    let best = [node];
    for (const next of graph.get(node) ?? []) {
      const chain = from(next);
      if (chain.length + 1 > best.length) best = [node, ...chain];
    }
    visiting.delete(node);
    memo.set(node, best);
    return best;
  };
  return [...graph.keys()].map(from).reduce((a, b) => (b.length > a.length ? b : a), [] as string[]);
}

describe("folder graph helpers", () => {
  it("finds the longest chain and the pairs that import each other", () => {
    const graph = folderGraph([
      { from: "app/routes/a.tsx", to: "app/entry/admin/b.ts" },
      { from: "app/entry/admin/b.ts", to: "app/domains/referrals/c.ts" },
      { from: "app/domains/referrals/c.ts", to: "app/platform/queue/d.ts" },
      { from: "app/domains/referrals/c.ts", to: "app/domains/referrals/e.ts" },
      { from: "app/routes/a.tsx", to: "app/platform/queue/d.ts" },
    ]);
    expect(longestChain(graph)).toEqual(["routes", "entry/admin", "domains/referrals", "platform/queue"]);
    expect(mutualPairs(graph)).toEqual([]);
    graph.set("platform/queue", new Set(["domains/referrals"]));
    expect(mutualPairs(graph)).toEqual(["domains/referrals <-> platform/queue"]);
  });
});

describe("app/'s layers", () => {
  it("keep the folder graph low: a longest chain of 8 folders, no two importing each other", async () => {
    const result = await cruise(["app"], {
      doNotFollow: { path: "node_modules" },
      exclude: { path: "\\.d\\.ts$" },
      tsPreCompilationDeps: true,
      tsConfig: { fileName: path.join(repoRoot, "tsconfig.json") },
      enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".tsx", ".js", ".mjs"] },
    });
    const output = result.output as { modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }> };
    const graph = folderGraph(output.modules.flatMap((m) => m.dependencies.map((d) => ({ from: m.source, to: d.resolved }))));
    expect(mutualPairs(graph)).toEqual([]);
    const chain = longestChain(graph);
    expect(chain.length, chain.join(" -> ")).toBeLessThanOrEqual(8);
  }, 60_000);

  it("give each domain an index.ts, its one face", () => {
    const domains = readdirSync(path.join(repoRoot, "app/domains"), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(domains.length).toBeGreaterThan(5);
    expect(domains.filter((d) => !existsSync(path.join(repoRoot, "app/domains", d.name, "index.ts"))).map((d) => d.name)).toEqual([]);
  });
});
