// Part of `npm run build`: compiles the app's entries that run outside the
// Remix server bundle into build/, next to it, so production runs no
// TypeScript:
// - the threads the app process starts (a thread cannot load the server
//   bundle without starting the whole app in it): the SQLite intake's and
//   the in-process job worker's;
// - the job worker process (`npm run worker`).
import { build } from "esbuild";

const ENTRIES = {
  "sqlite-intake-thread": "app/referrals/sqlite-intake-thread.ts",
  "worker-thread": "app/wiring/worker-thread.ts",
  worker: "scripts/worker.ts",
};

await build({
  entryPoints: ENTRIES,
  outdir: "build",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // Packages come from node_modules, as the server bundle's imports do.
  packages: "external",
  // What an entry imports only when it is needed (Shopify's app configuration,
  // for a job's first Admin API call) stays out of its start: a chunk of its own.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});
