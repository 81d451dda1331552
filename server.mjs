// The production server (`npm start`, or `node server.mjs [build/index.js]`):
// what remix-serve does, plus one shortcut. The order webhooks, the app's
// busiest requests, are answered straight from Node's request by the app's
// own code (serveOrderWebhook: app/webhooks/order-webhooks.server.ts, made in app/wiring/order-intake.server.ts)
// before Express and Remix would build a Fetch Request for them; every other
// request goes to Remix. It needs build/, node_modules, prisma/ and
// package.json beside it, and runs no TypeScript.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

requireSupportedNode();
runWithMemorySettings();
await serve();

/** Stops at once, saying what to do, on a Node older than package.json's engines allow. */
function requireSupportedNode() {
  const wanted = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).engines.node;
  const [major, minor] = process.versions.node.split(".").map(Number);
  const [wantMajor, wantMinor] = wanted.replace(/^>=\s*/, "").split(".").map(Number);
  if (major > wantMajor || (major === wantMajor && minor >= wantMinor)) return;
  console.error(`Referral Bridge needs Node.js ${wanted}; this is ${process.version}. Install Node 22 (see .nvmrc), e.g. with nvm: nvm install 22`);
  process.exit(1);
}

/**
 * The process's memory settings, which only its start can set: it starts
 * itself again with them, in place (same process id, same signals), before it
 * loads anything. `node server.mjs` and `npm start` run the same way.
 * - A young generation of 16 MB (8 MB semi-spaces) for the main thread, not
 *   V8's 32 MB: under a burst of webhooks it fills whatever it is given.
 * - Two malloc arenas (glibc): every thread (the intake's, the job worker's,
 *   V8's helpers) otherwise keeps an arena of its own, each holding on to
 *   what it freed; about 25 MB at the bench's load.
 * Where Node cannot (process.execve is Linux and macOS only), or where they
 * are already set (NODE_OPTIONS, the environment), it runs as it was started.
 */
function runWithMemorySettings() {
  const flags = ["--max-semi-space-size=8"];
  const env = { MALLOC_ARENA_MAX: "2" };
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  if (typeof process.execve !== "function" || process.env.REFERRAL_BRIDGE_MEMORY_SET) return;
  const ownFlags = flags.filter((flag) => !given.some((g) => g.startsWith(flag.split("=")[0])));
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...ownFlags, ...process.argv.slice(1)], {
    ...env,
    ...process.env,
    REFERRAL_BRIDGE_MEMORY_SET: "1",
  });
}

async function serve() {
  // Node 22's own fetch, Request and Response serve Remix and the app: no
  // polyfill (Remix's installGlobals), whose fetch crashed the process when a
  // POST to the referral service was aborted on its timeout.
  const [{ createRequestHandler }, { default: compression }, { default: express }, { default: morgan }] = await Promise.all([
    import("@remix-run/express"),
    import("compression"),
    import("express"),
    import("morgan"),
  ]);
  const build = await import(pathToFileURL(resolve(process.argv[2] ?? "build/index.js")).href);
  const { accessLogLine, serveOrderWebhook, startAppProcess, stopAppProcess } = build.entry.module;

  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  // No query strings (tokens, signatures, customer ids) and no emails in the access log.
  app.use(morgan(accessLogLine));
  // Behind a load balancer, TRUST_PROXY_HOPS=1 makes the client's address the one it adds to X-Forwarded-For.
  app.set("trust proxy", Number(process.env.TRUST_PROXY_HOPS ?? 0));
  app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV, getLoadContext: (req) => ({ clientAddress: req.ip }) }));

  const server = createServer((req, res) => {
    if (req.method === "POST" && serveOrderWebhook(req, res)) return;
    app(req, res);
  });

  // The order intake is warm and the in-process worker runs before the first request.
  await startAppProcess();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST;
  server.listen(port, host, () => console.log(`[referral-bridge] listening on http://${host ?? "localhost"}:${port}`));

  // SIGTERM (a deploy, a scale-down): order webhooks are answered 503 from
  // now on, so Shopify delivers them again; what is under way finishes within
  // SHUTDOWN_DEADLINE_MS; then the server closes and the process exits 0.
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, async () => {
      try {
        await stopAppProcess();
        server.close();
        process.exit(0);
      } catch (error) {
        console.error("[referral-bridge] could not stop cleanly", error);
        process.exit(1);
      }
    });
  }
}
