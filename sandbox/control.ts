// The control API under /_sandbox/: fault injection, inspection, reset, webhook
// receivers, payouts, shares and credential rotation. No auth; loopback only.

import type { IncomingMessage, ServerResponse } from "node:http";
import { FaultConfigError, parseFaultConfig } from "./faults";
import { BodyError, isLoopback, readBody, sendJson } from "./http";
import { ActivityError, createPayout, recordShare } from "./domain/activity";
import { WebhookConfigError } from "./webhooks";
import type { SandboxCore } from "./core";

export const CONTROL_PREFIX = "/_sandbox";

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req);
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new ControlError(400, "The body must be JSON.");
  }
}

type Handler = (core: SandboxCore, req: IncomingMessage, url: URL) => Promise<unknown> | unknown;

const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  "/health": { GET: () => ({ ok: true }) },
  "/faults": {
    GET: (core) => core.faults.current(),
    POST: async (core, req) => {
      core.faults.set(parseFaultConfig(await readJson(req)));
      return core.faults.current();
    },
    DELETE: (core) => {
      core.faults.clear();
      return core.faults.current();
    },
  },
  "/ledger": { GET: (core) => core.ledger() },
  "/reset": {
    POST: (core) => {
      core.reset();
      return { ok: true };
    },
  },
  "/webhooks": {
    GET: (core) => ({ receivers: core.webhooks.receivers(), deliveries: core.webhooks.deliveries() }),
    POST: async (core, req) => core.webhooks.register(await readJson(req)),
    DELETE: (core, _req, url) => {
      const id = url.searchParams.get("id");
      core.webhooks.unregister(id === null ? undefined : Number(id));
      return { receivers: core.webhooks.receivers() };
    },
  },
  "/payouts": {
    GET: (core) => core.store.payouts,
    POST: async (core, req) => createPayout(core.store, (await readJson(req)) as Record<string, unknown>),
  },
  "/shares": {
    POST: async (core, req) => recordShare(core.store, (await readJson(req)) as Record<string, unknown>),
  },
  "/credentials": {
    GET: (core) => ({ ...core.credentials }),
    POST: async (core, req) => {
      try {
        return core.setCredentials(await readJson(req));
      } catch (error) {
        if (error instanceof ControlError) throw error;
        throw new ControlError(400, (error as Error).message);
      }
    },
  },
};

export async function handleControl(core: SandboxCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (!isLoopback(req.socket.remoteAddress)) return sendJson(res, 403, { error: "The control API answers loopback callers only." });
  const path = url.pathname.slice(CONTROL_PREFIX.length).replace(/\/+$/, "") || "/";
  const route = ROUTES[path];
  if (!route) return sendJson(res, 404, { error: `Unknown control path ${path}.`, paths: Object.keys(ROUTES) });
  const method = req.method ?? "GET";
  const handler = route[method];
  if (!handler) return sendJson(res, 405, { error: `Use ${Object.keys(route).join(" or ")}.` }, { Allow: Object.keys(route).join(", ") });
  try {
    sendJson(res, 200, await handler(core, req, url));
  } catch (error) {
    if (error instanceof ControlError || error instanceof ActivityError || error instanceof BodyError) {
      return sendJson(res, error.status, { error: error.message });
    }
    if (error instanceof FaultConfigError || error instanceof WebhookConfigError) return sendJson(res, 400, { error: error.message });
    throw error;
  }
}
