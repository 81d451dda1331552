// The token-header interface: entry point, api-key, and two list resources
// (companies, contacts) with page / page_size / search / ordering.

import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyError, parseBody, readBody, sendJson } from "./http";
import { formatCents } from "./money";
import { SEED } from "./seed";
import type { SandboxCore } from "./core";

export const TOKEN_API_PREFIX = "/token-api";
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

type Row = Record<string, unknown>;

interface ListResource {
  rows(core: SandboxCore): Row[];
  searchable: string[];
  orderable: string[];
}

const RESOURCES: Record<string, ListResource> = {
  companies: {
    rows: () =>
      SEED.tokenApiCompanies.map((c, i) => ({ ...c, created_at: new Date(Date.UTC(2023, i, 1)).toISOString() })),
    searchable: ["name", "url", "email"],
    orderable: ["id", "name", "url", "email", "created_at"],
  },
  contacts: {
    rows: (core) =>
      [...core.store.ambassadors.values()].map((a) => ({
        id: a.id,
        uid: a.uid,
        email: a.email,
        first_name: a.firstName,
        last_name: a.lastName,
        status: a.status,
        is_active: a.active,
        test_mode: a.sandbox,
        groups: [...a.groups],
        balance_money: formatCents(a.balanceCents),
        balance_points: a.balancePoints,
        unique_referrals: core.store.uniqueReferrals(a.id),
        created_at: new Date(a.createdMs).toISOString(),
      })),
    searchable: ["email", "first_name", "last_name", "uid"],
    orderable: ["id", "email", "first_name", "last_name", "created_at", "balance_money", "balance_points", "unique_referrals"],
  },
};

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1; // nulls last
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const numeric = /^-?\d+(\.\d+)?$/;
  if (typeof a === "string" && typeof b === "string" && numeric.test(a) && numeric.test(b)) return Number(a) - Number(b);
  return String(a).localeCompare(String(b), "en", { sensitivity: "base" });
}

function pageUrl(origin: string, url: URL, page: number): string {
  const next = new URL(url.pathname + url.search, origin);
  if (page === 1) next.searchParams.delete("page");
  else next.searchParams.set("page", String(page));
  return next.toString();
}

function positiveInt(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 ? value : undefined;
}

function list(core: SandboxCore, resource: ListResource, url: URL, origin: string, res: ServerResponse): void {
  const query = url.searchParams;
  let rows = resource.rows(core);

  const terms = (query.get("search") ?? "").toLowerCase().split(/[\s,]+/).filter(Boolean);
  if (terms.length > 0) {
    rows = rows.filter((row) =>
      terms.every((term) => resource.searchable.some((field) => String(row[field] ?? "").toLowerCase().includes(term))),
    );
  }

  const ordering = (query.get("ordering") ?? "")
    .split(",")
    .map((f) => f.trim())
    .filter((f) => resource.orderable.includes(f.replace(/^-/, "")));
  const keys = ordering.length > 0 ? ordering : ["id"];
  rows = [...rows].sort((x, y) => {
    for (const key of keys) {
      const field = key.replace(/^-/, "");
      const order = compare(x[field], y[field]);
      if (order !== 0) return key.startsWith("-") ? -order : order;
    }
    return compare(x.id, y.id);
  });

  const pageSize = Math.min(positiveInt(query.get("page_size")) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const lastPage = Math.max(1, Math.ceil(rows.length / pageSize));
  const page = query.has("page") ? positiveInt(query.get("page")) : 1;
  if (page === undefined || page > lastPage) return sendJson(res, 404, { detail: "Invalid page." });
  sendJson(res, 200, {
    count: rows.length,
    next: page < lastPage ? pageUrl(origin, url, page + 1) : null,
    previous: page > 1 ? pageUrl(origin, url, page - 1) : null,
    results: rows.slice((page - 1) * pageSize, page * pageSize),
  });
}

function acceptsJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (!accept) return true;
  return accept.split(",").some((part) => {
    const type = part.split(";")[0].trim().toLowerCase();
    return type === "*/*" || type === "application/*" || type === "application/json";
  });
}

function authenticate(core: SandboxCore, req: IncomingMessage, res: ServerResponse): boolean {
  const header = req.headers.authorization;
  if (!header) {
    sendJson(res, 401, { detail: "Authentication credentials were not provided." }, { "WWW-Authenticate": "Token" });
    return false;
  }
  const [scheme, key, extra] = header.trim().split(/\s+/);
  if (scheme?.toLowerCase() !== "token" || !key || extra !== undefined || key !== core.apiKey) {
    sendJson(res, 401, { detail: "Invalid token." }, { "WWW-Authenticate": "Token" });
    return false;
  }
  return true;
}

async function apiKey(core: SandboxCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let fields: Map<string, string>;
  try {
    fields = await parseBody(await readBody(req), req.headers["content-type"]);
  } catch (error) {
    if (error instanceof BodyError) return sendJson(res, error.status, { detail: error.message });
    throw error;
  }
  const missing = ["username", "password"].filter((name) => !fields.get(name));
  if (missing.length > 0) {
    return sendJson(res, 400, Object.fromEntries(missing.map((name) => [name, ["This field is required."]])));
  }
  if (fields.get("username") !== core.credentials.username || fields.get("password") !== core.password) {
    return sendJson(res, 400, { non_field_errors: ["Unable to log in with provided credentials."] });
  }
  sendJson(res, 200, { api_key: core.apiKey });
}

export async function handleTokenApi(core: SandboxCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? "GET";
  const origin = `http://${req.headers.host ?? new URL(core.baseUrl).host}`;
  const path = url.pathname.slice(TOKEN_API_PREFIX.length).replace(/\/+$/, "") || "/";
  const status = () => res.statusCode;
  try {
    if (!acceptsJson(req)) return sendJson(res, 406, { detail: "Could not satisfy the request Accept header." });

    if (path === "/api-key") {
      if (method !== "POST") return sendJson(res, 405, { detail: `Method "${method}" not allowed.` }, { Allow: "POST, OPTIONS" });
      return await apiKey(core, req, res);
    }

    if (path === "/") {
      if (method === "OPTIONS") {
        return sendJson(res, 200, { name: "Api Root", renders: ["application/json"] }, { Allow: "GET, OPTIONS, POST" });
      }
      if (method !== "GET" && method !== "POST") {
        return sendJson(res, 405, { detail: `Method "${method}" not allowed.` }, { Allow: "GET, OPTIONS, POST" });
      }
      if (!authenticate(core, req, res)) return;
      const base = `${origin}${TOKEN_API_PREFIX}`;
      return sendJson(res, 200, { companies: `${base}/companies/`, contacts: `${base}/contacts/` }, { Allow: "GET, OPTIONS, POST" });
    }

    const [, name, id, ...rest] = path.split("/");
    const resource = RESOURCES[name];
    if (!resource || rest.length > 0) return sendJson(res, 404, { detail: "Not found." });
    if (method !== "GET") return sendJson(res, 405, { detail: `Method "${method}" not allowed.` }, { Allow: "GET, OPTIONS" });
    if (!authenticate(core, req, res)) return;
    if (id === undefined) return list(core, resource, url, origin, res);
    const row = resource.rows(core).find((r) => String(r.id) === id);
    return row ? sendJson(res, 200, row) : sendJson(res, 404, { detail: "Not found." });
  } finally {
    core.store.recordRequest({
      operation: `token-api${path}`,
      method,
      status: status(),
      at: new Date().toISOString(),
      durationMs: 0,
    });
  }
}
