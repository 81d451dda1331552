// The sandbox referral service: an HTTP server implementing the interface
// document, for development, the demo and the app's tests. See README.md.

import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { SandboxCore } from "./core";
import { CONTROL_PREFIX, handleControl } from "./control";
import { recordClick } from "./domain/activity";
import type { FaultConfig } from "./faults";
import { parseFaultConfig } from "./faults";
import { sendJson } from "./http";
import { SEED } from "./seed";
import { handleTokenApi, TOKEN_API_PREFIX } from "./token-api";
import { handleV2, isV2Path } from "./v2";
import type { Delivery, Receiver } from "./webhooks";

export interface SandboxOptions {
  /** 0 = random free port; default 4010 when run from the CLI (and here). */
  port?: number;
  /** default "127.0.0.1" */
  host?: string;
  /** default "demo" */
  username?: string;
  /** default "demo-token" */
  token?: string;
  /** Multiplies the webhook retry delays (5 min, 30 min); default 1; tests use e.g. 0.001. */
  timeScale?: number;
  /** default 6 */
  exportRateLimitPerMinute?: number;
  /** default true: load the demo company; false loads its company, campaigns and groups only (no people). */
  seed?: boolean;
  /** No console output. */
  quiet?: boolean;
  /** How long a webhook receiver may take to answer; default 10 000 ms. */
  webhookTimeoutMs?: number;
  /** Serve https with this key and certificate (PEM), as a real service is reached; default plain http. */
  tls?: { key: string; cert: string };
}

export interface SandboxHandle {
  /** e.g. "http://127.0.0.1:4010"; v2 paths are `${baseUrl}/api/v2/${username}/${token}/json/<operation>/` */
  baseUrl: string;
  /** Base of the token-header interface, `${baseUrl}/token-api`. */
  tokenApiUrl: string;
  /** The credentials accepted now (they change with setCredentials or /_sandbox/credentials). */
  username: string;
  token: string;
  port: number;
  close(): Promise<void>;
  /** Back to the freshly seeded state; clears faults, ledger, webhook receivers and deliveries. */
  reset(): void;

  // In-process equivalents of the control API (optional conveniences).
  setFaults(config: FaultConfig): void;
  clearFaults(): void;
  /** Holds every v2 call until the returned function is called (or the faults are cleared). */
  holdCalls(): () => void;
  ledger(): ReturnType<SandboxCore["ledger"]>;
  registerWebhook(receiver: { url: string; secret: string; events?: string[] }): Receiver;
  deliveries(): Delivery[];
  /** Resolves when no webhook attempt is running or scheduled. */
  webhooksIdle(): Promise<void>;
  setCredentials(credentials: { username: string; token: string }): void;
}

async function route(core: SandboxCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://sandbox.invalid");
  const path = url.pathname;
  if (isV2Path(path)) return handleV2(core, req, res, url);
  if (path === TOKEN_API_PREFIX || path.startsWith(`${TOKEN_API_PREFIX}/`)) return handleTokenApi(core, req, res, url);
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return handleControl(core, req, res, url);

  const share = /^\/s\/([^/]+)\/?$/.exec(path);
  if (share && (req.method === "GET" || req.method === "HEAD")) {
    const target = recordClick(core.store, decodeURIComponent(share[1]), {
      channel: url.searchParams.get("channel") ?? undefined,
      ip: req.socket.remoteAddress,
      referringUrl: req.headers.referer,
    });
    if (!target) return sendJson(res, 404, { error: "Unknown share link." });
    res.writeHead(302, { Location: target, "Content-Length": 0 });
    res.end();
    return;
  }
  if (path === "/" && req.method === "GET") {
    return sendJson(res, 200, {
      service: "referral sandbox",
      v2: `${core.baseUrl}/api/v2/{username}/{token}/json/<operation>/`,
      token_api: `${core.baseUrl}${TOKEN_API_PREFIX}/`,
      control: `${core.baseUrl}${CONTROL_PREFIX}/`,
    });
  }
  sendJson(res, 404, { error: "Not found." });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? "127.0.0.1";
  const core = new SandboxCore({
    username: options.username ?? SEED.credentials.username,
    token: options.token ?? SEED.credentials.token,
    timeScale: options.timeScale ?? 1,
    exportRateLimitPerMinute: options.exportRateLimitPerMinute ?? 6,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    seedPeople: options.seed ?? true,
    quiet: options.quiet ?? false,
    verbose: process.env.SANDBOX_VERBOSE === "1",
  });

  const listener: RequestListener = (req, res) => {
    route(core, req, res).catch((error: unknown) => {
      core.logError(`unhandled: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) {
        sendJson(res, 500, {
          response: { code: "500", message: "INTERNAL SERVER ERROR: The server encountered an unexpected error.", errors: { error: ["Unexpected error."] } },
        });
      } else {
        res.destroy();
      }
    });
  };
  const server = options.tls ? createTlsServer({ keepAlive: true, ...options.tls }, listener) : createServer({ keepAlive: true }, listener);
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `${options.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  core.setBaseUrl(baseUrl);

  let closed: Promise<void> | undefined;
  return {
    baseUrl,
    tokenApiUrl: `${baseUrl}${TOKEN_API_PREFIX}`,
    get username() {
      return core.credentials.username;
    },
    get token() {
      return core.credentials.token;
    },
    port,
    close() {
      closed ??= (async () => {
        await core.webhooks.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closed;
    },
    reset: () => core.reset(),
    setFaults: (config) => core.faults.set(parseFaultConfig(config)),
    clearFaults: () => core.faults.clear(),
    holdCalls: () => core.faults.hold(),
    ledger: () => core.ledger(),
    registerWebhook: (receiver) => core.webhooks.register(receiver),
    deliveries: () => core.webhooks.deliveries(),
    webhooksIdle: () => core.webhooks.idle(),
    setCredentials: (credentials) => {
      core.setCredentials(credentials);
    },
  };
}
