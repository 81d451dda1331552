// The production server (`npm start`, or `node server.mjs [build/index.js]`):
// what remix-serve does, plus one shortcut. The order webhooks, the app's
// busiest requests, are answered straight from Node's request by the app's
// own code (serveOrderWebhook in app/webhooks/order-webhooks.server.ts)
// before Express and Remix would build a Fetch Request for them; every other
// request goes to Remix.
import { createServer } from "node:http";
import { resolve } from "node:path";
import { setTimeout } from "node:timers";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";

await serve();

async function serve() {
  const build = await import(pathToFileURL(resolve(process.argv[2] ?? "build/index.js")).href);
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  app.use(morgan("tiny"));
  app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

  const { serveOrderWebhook } = build.entry.module;
  const server = createServer((req, res) => {
    if (req.method === "POST" && serveOrderWebhook(req, res)) return;
    app(req, res);
  });

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST;
  server.listen(port, host, () => console.log(`[referral-bridge] listening on http://${host ?? "localhost"}:${port}`));

  // The in-process job worker stops on the same signals; a job it was
  // sending is taken again after its lease.
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, () => {
      server.close(() => process.exit(0));
      setTimeout(() => process.exit(0), 5_000).unref();
    });
  }
}
