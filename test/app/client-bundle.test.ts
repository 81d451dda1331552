// What the browser is sent, read from the production client build (the test
// run's global set-up builds it when the sources are newer): the Remix
// manifest says which chunks each route loads, esbuild's metafile says which
// source modules went into each chunk.
//
// Server code stays on the server: no route's chunks may hold zod, Prisma or a
// module of a `.server` file. And each admin page's JavaScript, sent before it
// is interactive, stays within its budget.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../entry/admin/app-server";

/**
 * Gzip bytes of JavaScript a route's document makes the browser load before
 * it is interactive: entry.client, root, the parent layouts and the route
 * itself, each with the shared chunks it imports. Measured 2026-11-24 after
 * zod left the client: about 166 KB for the layout alone (React, Remix,
 * Polaris, App Bridge React) and 6-12 KB more per page; the budgets leave a
 * few KB of room. A route not listed here gets DEFAULT_BUDGET.
 */
const BUDGETS: Record<string, number> = {
  "routes/app": 172_000,
  // The setup guide's extension placements (App Bridge) and the one attention banner: 180.4 KB on 2026-11-26.
  "routes/app._index": 185_000,
  "routes/app.activity": 180_000,
  "routes/app.ambassadors._index": 180_000,
  "routes/app.ambassadors.$email": 180_000,
  "routes/app.campaigns": 180_000,
  "routes/app.commissions": 185_000,
  "routes/app.data-requests": 180_000,
  "routes/app.events": 180_000,
  "routes/app.settings": 185_000,
};
const DEFAULT_BUDGET = 180_000;

/** Text that only zod's code contains: zod 4 names every schema class with a string ("$ZodType", "$ZodError"), which minifying keeps. */
const ZOD_MARKERS = ["$ZodType", "$ZodError"];
/** Text of @prisma/client's browser stub and of its runtime. */
const PRISMA_MARKERS = ["PrismaClient is unable to run in", "prismaVersion"];

interface ManifestRoute {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}
interface Manifest {
  url?: string;
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}
interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

const publicDir = path.join(repoRoot, "public");
let manifest: Manifest;
let metafile: Metafile;

/** The manifest the server build serves (an older one may still lie in public/build). */
function readManifest(): Manifest {
  const serverBuild = readFileSync(path.join(repoRoot, "build/index.js"), "utf8");
  const name = serverBuild.match(/\/build\/manifest-[A-Z0-9]+\.js/)?.[0];
  if (!name) throw new Error("build/index.js names no client manifest: run npm run build");
  const text = readFileSync(path.join(publicDir, name), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Manifest;
}

const fileText = (url: string) => readFileSync(path.join(publicDir, url), "utf8");
const gzipBytes = (url: string) => gzipSync(readFileSync(path.join(publicDir, url))).length;

/** The chunks of one route module: the module and the shared chunks it imports. */
const chunksOf = (route: { module: string; imports?: string[] }) => [route.module, ...(route.imports ?? [])];

/** Every chunk the browser loads for a document of `routeId`: entry, then root down to the route. */
function initialChunks(routeId: string): string[] {
  const chain: ManifestRoute[] = [];
  for (let route: ManifestRoute | undefined = manifest.routes[routeId]; route; route = route.parentId ? manifest.routes[route.parentId] : undefined) chain.unshift(route);
  return [...new Set([...chunksOf(manifest.entry), ...chain.flatMap(chunksOf)])];
}

/** The source modules esbuild put into a chunk (by its /build/... address). */
function inputsOf(url: string): string[] {
  const output = metafile.outputs[`public${url}`];
  if (!output) throw new Error(`build/metafile.js.json does not describe ${url}: the metafile and the manifest are from different builds`);
  return Object.keys(output.inputs);
}

/** What of the server's a chunk holds, one line per kind with its evidence; empty when nothing. */
function serverCodeIn(url: string): string[] {
  const text = fileText(url);
  const inputs = inputsOf(url).filter((input) => !input.startsWith("empty-module:")); // Remix's stand-ins for .server imports
  const kinds = [
    { what: "zod", markers: ZOD_MARKERS, modules: inputs.filter((input) => /(^|\/)node_modules\/zod\//.test(input)) },
    { what: "Prisma", markers: PRISMA_MARKERS, modules: inputs.filter((input) => /(^|\/)node_modules\/(@prisma|\.prisma)\//.test(input)) },
    { what: "server-only code", markers: [], modules: inputs.filter((input) => /\.server(\.[cm]?[jt]sx?)?$|\.server\//.test(input)) },
  ];
  return kinds.flatMap(({ what, markers, modules }) => {
    const seen = markers.filter((marker) => text.includes(marker)).map((marker) => `"${marker}"`);
    if (seen.length === 0 && modules.length === 0) return [];
    const evidence = [...seen, ...modules.slice(0, 3), ...(modules.length > 3 ? [`${modules.length - 3} more modules`] : [])];
    return [`${what} (${evidence.join(", ")})`];
  });
}

describe("the client build", () => {
  beforeAll(() => {
    manifest = readManifest();
    const metafilePath = path.join(repoRoot, "build/metafile.js.json");
    if (!existsSync(metafilePath)) throw new Error("build/metafile.js.json is missing: run npm run build");
    metafile = JSON.parse(readFileSync(metafilePath, "utf8")) as Metafile;
  });

  it("holds no zod, Prisma or .server module in any route's chunks", () => {
    const routes = [{ id: "entry.client", ...manifest.entry }, ...Object.values(manifest.routes)];
    expect(routes.length).toBeGreaterThan(10);
    const leaks: string[] = [];
    for (const route of routes) {
      for (const chunk of chunksOf(route)) {
        for (const what of serverCodeIn(chunk)) leaks.push(`${route.id}: ${chunk} holds ${what}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it("loads the chart library (polaris-viz) only when the Overview's chart is drawn", () => {
    const isPolarisVizCode = (input: string) => /node_modules\/@shopify\/polaris-viz(-core)?\//.test(input) && !input.endsWith(".css");
    const initial = initialChunks("routes/app._index");
    expect(initial.filter((chunk) => inputsOf(chunk).some(isPolarisVizCode))).toEqual([]);
    // It is in the build, in a chunk of its own that the page imports later.
    const lazy = Object.keys(metafile.outputs).filter((output) => output.endsWith(".js") && Object.keys(metafile.outputs[output].inputs).some(isPolarisVizCode));
    expect(lazy.length).toBeGreaterThan(0);
  });

  it("keeps every admin page's JavaScript within its budget", () => {
    const adminRoutes = Object.keys(manifest.routes).filter((id) => id === "routes/app" || id.startsWith("routes/app."));
    const rows = adminRoutes.map((id) => {
      const bytes = initialChunks(id).reduce((sum, chunk) => sum + gzipBytes(chunk), 0);
      return { id, bytes, budget: BUDGETS[id] ?? DEFAULT_BUDGET };
    });
    process.stdout.write(
      `JavaScript before interactive (gzip bytes):\n${rows.map((r) => `  ${r.id.padEnd(42)} ${String(r.bytes).padStart(8)}  / ${r.budget}`).join("\n")}\n`
    );
    expect(rows.filter((r) => r.bytes > r.budget).map((r) => `${r.id}: ${r.bytes} > ${r.budget}`)).toEqual([]);
  });
});
