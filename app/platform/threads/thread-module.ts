import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

// Where a worker thread's module is. A thread cannot load the server bundle
// (that would start the whole app in it), so each thread's entry is compiled
// next to the bundle by `npm run build` (scripts/build/node-entries.ts), and
// production runs no TypeScript. Where there is none (tests, `remix dev`),
// the TypeScript source of the project this module is part of, run through tsx.

export interface ThreadModule {
  entry: URL;
  execArgv: string[];
}

/** `built`: the entry's name in build/ ("sqlite-intake-thread"); `source`: its path in the project ("app/wiring/intake-thread.ts"). */
export function threadModule(built: string, source: string): ThreadModule {
  const compiled = new URL(`./${built}.mjs`, import.meta.url);
  if (existsSync(compiled)) return { entry: compiled, execArgv: [] };
  for (let dir = new URL("./", import.meta.url); ; dir = new URL("../", dir)) {
    const entry = new URL(source, dir);
    if (existsSync(entry)) return { entry, execArgv: ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] };
    if (dir.pathname === "/") throw new Error(`Neither ${compiled.pathname} nor ${source} was found; run npm run build`);
  }
}
