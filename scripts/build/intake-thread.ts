// Part of `npm run build`: compiles the SQLite intake thread into
// build/sqlite-intake-thread.mjs next to the server bundle, so the server
// runs no TypeScript. The Remix compiler makes one bundle of the whole app,
// which a thread cannot load without starting the app in it.
import { build } from "esbuild";

await build({
  entryPoints: ["app/referrals/sqlite-intake-thread.ts"],
  outfile: "build/sqlite-intake-thread.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // zod and better-sqlite3 come from node_modules, as the server's own imports do.
  packages: "external",
  logLevel: "warning",
});
