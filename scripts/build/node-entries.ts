// Part of `npm run build`: compiles the app's entries that run outside the
// Remix server bundle into build/, next to it, so production runs no
// TypeScript:
// - the threads the app process starts (a thread cannot load the server
//   bundle without starting the whole app in it): the SQLite intake's and
//   the in-process job worker's;
// - the job worker process (`npm run worker`) and the Pub/Sub consumer (`npm run consume`).
import { readdirSync, rmSync } from "node:fs";
import { build } from "esbuild";

const ENTRIES = {
  "sqlite-intake-thread": "app/wiring/intake-thread.ts",
  "worker-thread": "app/wiring/worker-thread.ts",
  worker: "scripts/worker.ts",
  consume: "scripts/consume.ts",
};

// The chunks of the last build go: their names change with their content.
for (const name of readdirSync("build", { withFileTypes: true }).filter((f) => f.isFile()).map((f) => f.name)) {
  if (/^[\w.]+-[A-Z0-9]{8}\.mjs$/.test(name)) rmSync(`build/${name}`);
}

await build({
  entryPoints: ENTRIES,
  outdir: "build",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node26",
  // Packages come from node_modules, as the server bundle's imports do.
  packages: "external",
  // What an entry imports only when it is needed (Shopify's app configuration,
  // for a job's first Admin API call) stays out of its start: a chunk of its own.
  // Chunks sit beside the entries (esbuild's default): app/platform/threads/thread-module.ts,
  // in one of them, finds the threads' entries next to itself.
  splitting: true,
  logLevel: "warning",
});
