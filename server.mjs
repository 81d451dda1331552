// The production server (`npm start`, or `node server.mjs [build/index.js]`):
// what remix-serve does, plus one shortcut. The order webhooks, the app's
// busiest requests, are answered straight from Node's request by the app's
// own code (serveOrderWebhook: app/entry/webhooks/order-webhooks.server.ts, made in app/wiring/order-intake.server.ts)
// before Express and Remix would build a Fetch Request for them; every other
// request goes to Remix. It needs build/, node_modules, prisma/ and
// package.json beside it, and runs no TypeScript.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout } from "node:timers";
import v8 from "node:v8";

requireSupportedNode();
// Production unless development is asked for: React, Remix and the app's own checks (app/wiring/env.server.ts) then agree.
const productionByDefault = !process.env.NODE_ENV?.trim();
if (productionByDefault) process.env.NODE_ENV = "production";
// The start command's semi-space sizes bound this thread's young generation (see docs/setup.md, step 6); V8
// would apply them to the threads the app starts too, over their own limits: from here on, they keep those.
v8.setFlagsFromString("--min-semi-space-size=0");
v8.setFlagsFromString("--max-semi-space-size=0");
await serve();

/** Stops at once, saying what to do, on a Node older than package.json's engines allow. */
function requireSupportedNode() {
  const wanted = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).engines.node;
  const [major, minor] = process.versions.node.split(".").map(Number);
  const [wantMajor, wantMinor] = wanted.replace(/^>=\s*/, "").split(".").map(Number);
  if (major > wantMajor || (major === wantMajor && minor >= wantMinor)) return;
  console.error(`Referral Bridge needs Node.js ${wanted}; this is ${process.version}. Install Node ${wantMajor} LTS (see .nvmrc), e.g. with nvm: nvm install ${wantMajor}`);
  process.exit(1);
}

/** The environment's problems, one a line, instead of a stack trace; then exit 1. Anything else is thrown on. */
function refuseEnvironment(error) {
  if (error?.name !== "EnvError") throw error;
  console.error(error.message);
  if (productionByDefault) console.error("  (NODE_ENV is not set, so this is a production process; for development with its defaults, set NODE_ENV=development)");
  process.exit(1);
}

/**
 * Node closes a connection after a "Connection: close" answer (a body refused
 * unread: 404, 408, 413) by sending FIN and destroying the socket at once; with
 * the client's body still arriving, that sends a reset, and the client's side
 * drops the answer it had not read yet. Here the socket half-closes and goes
 * when the client closes its side, or after a grace period.
 */
function closeAfterAnswerRead(socket) {
  socket.destroySoon = function lingeringClose() {
    if (this.writable) this.end();
    setTimeout(() => this.destroy(), 10_000).unref();
  };
}

async function serve() {
  // Node's own fetch, Request and Response serve Remix and the app: no
  // polyfill (Remix's installGlobals), whose fetch crashed the process when a
  // POST to the referral service was aborted on its timeout.
  const [{ createRequestHandler }, { default: compression }, { default: express }, { default: morgan }] = await Promise.all([
    import("@remix-run/express"),
    import("compression"),
    import("express"),
    import("morgan"),
  ]);
  const build = await import(pathToFileURL(resolve(process.argv[2] ?? "build/index.js")).href).catch(refuseEnvironment);
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
  server.on("connection", closeAfterAnswerRead);

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
