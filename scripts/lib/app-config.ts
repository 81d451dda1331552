// Checks a production app configuration (shopify.app.<name>.toml) before it
// is deployed: it must point at a public https address, and ask for the same
// scopes, webhooks and app proxy as shopify.app.toml, which the app's code and
// tests follow. Reads the flat subset of TOML these files use.
import { checkServiceBaseUrl, STRICT_NETWORK } from "../../app/platform/referral-api/service-address";

type Value = string | boolean | number | string[];
type Table = Record<string, Value>;

export interface AppToml {
  /** "" for the top level, else the section's dotted name. */
  tables: Map<string, Table>;
  /** [[webhooks.subscriptions]] entries, in order. */
  subscriptions: Table[];
}

function stripComment(line: string): string {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"' && line[i - 1] !== "\\") inString = !inString;
    if (line[i] === "#" && !inString) return line.slice(0, i);
  }
  return line;
}

function parseValue(text: string): Value {
  const value = text.trim();
  if (value.startsWith("[")) return [...value.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  if (value.startsWith('"')) return JSON.parse(value) as string;
  if (value === "true" || value === "false") return value === "true";
  return Number(value);
}

export function parseAppToml(text: string): AppToml {
  const tables = new Map<string, Table>([["", {}]]);
  const subscriptions: Table[] = [];
  let current = tables.get("")!;
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = stripComment(raw).trim();
    if (!line && !pending) continue;
    if (pending || /^[\w.-]+\s*=\s*\[/.test(line)) {
      pending += ` ${line}`;
      // A multi-line array ends at its closing bracket.
      if ((pending.match(/\[/g) ?? []).length > (pending.match(/\]/g) ?? []).length) continue;
    }
    const entry = (pending || line).trim();
    pending = "";
    const arrayTable = /^\[\[([\w.-]+)\]\]$/.exec(entry);
    const table = /^\[([\w.-]+)\]$/.exec(entry);
    if (arrayTable) {
      current = {};
      if (arrayTable[1] === "webhooks.subscriptions") subscriptions.push(current);
    } else if (table) {
      current = tables.get(table[1]!) ?? {};
      tables.set(table[1]!, current);
    } else {
      const pair = /^([\w.-]+)\s*=\s*(.+)$/.exec(entry);
      if (!pair) throw new Error(`Cannot read this line of the app configuration: ${raw.trim()}`);
      current[pair[1]!] = parseValue(pair[2]!);
    }
  }
  return { tables, subscriptions };
}

const text = (config: AppToml, table: string, key: string): string | undefined => {
  const value = config.tables.get(table)?.[key];
  return typeof value === "string" ? value : undefined;
};
const list = (config: AppToml, table: string, key: string): string[] => {
  const value = config.tables.get(table)?.[key];
  if (Array.isArray(value)) return value;
  return typeof value === "string" ? value.split(",").map((item) => item.trim()).filter(Boolean) : [];
};
const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** The order topics, which may go to Google Cloud Pub/Sub (`npm run consume`); every other topic stays on the app's HTTPS routes. */
const PUBSUB_TOPICS = new Set(["orders/paid", "orders/create", "orders/cancelled", "refunds/create"]);
/** pubsub://<project>:<topic>, with Google's rules for both names. */
const PUBSUB_URI = /^pubsub:\/\/[a-z][a-z0-9-]{4,28}[a-z0-9]:[A-Za-z][\w.~+%-]{2,254}$/;

/**
 * One "topic -> uri" per topic. An order topic sent to Pub/Sub counts as its
 * HTTPS route (/webhooks/<topic>), so production may move it there and still
 * match the development file; `problems` gets what may not go there.
 */
function subscriptionKeys(config: AppToml, problems: string[] = []): string[] {
  return config.subscriptions.flatMap((entry) => {
    const uri = String(entry.uri);
    const topics = (entry.topics as string[]) ?? [];
    const compliance = (entry.compliance_topics as string[]) ?? [];
    if (!uri.startsWith("pubsub://")) return [...topics, ...compliance].map((topic) => `${topic} -> ${uri}`);
    if (!PUBSUB_URI.test(uri)) problems.push(`${uri} is not pubsub://<project>:<topic>`);
    const stay = [...topics.filter((topic) => !PUBSUB_TOPICS.has(topic)), ...compliance];
    if (stay.length > 0) problems.push(`only the order topics may go to Pub/Sub; ${stay.join(", ")} must stay on the app's HTTPS routes`);
    return topics.map((topic) => `${topic} -> /webhooks/${topic}`);
  });
}

/** Why this configuration must not be deployed; empty when it may. */
export function productionConfigProblems(production: AppToml, development: AppToml): string[] {
  const problems: string[] = [];
  const appUrl = text(production, "", "application_url");
  const checked = appUrl ? checkServiceBaseUrl(appUrl, STRICT_NETWORK) : null;
  if (!checked?.ok) {
    problems.push(`application_url must be a public https address, not ${appUrl ?? "(missing)"}${checked && !checked.ok ? ` (${checked.problem})` : ""}`);
  }
  const origin = checked?.ok ? checked.url.origin : null;
  const onAppOrigin = (url: string) => {
    try {
      return origin !== null && new URL(url).origin === origin;
    } catch {
      return false;
    }
  };
  const redirects = list(production, "auth", "redirect_urls");
  if (redirects.length === 0 || !redirects.every(onAppOrigin)) problems.push(`auth.redirect_urls must all be on ${origin ?? "the application_url"}: ${redirects.join(", ") || "(none)"}`);
  const proxyUrl = text(production, "app_proxy", "url");
  if (!proxyUrl || !onAppOrigin(proxyUrl)) problems.push(`app_proxy.url must be on ${origin ?? "the application_url"}, not ${proxyUrl ?? "(missing)"}`);
  const clientId = text(production, "", "client_id");
  if (!clientId || clientId === text(development, "", "client_id")) problems.push("client_id must be the production app's (from `shopify app config link`), not the development one");

  const same = (what: string, a: string[], b: string[]) => {
    if (!sameSet(a, b)) problems.push(`${what} differ from shopify.app.toml: ${a.join(", ") || "(none)"} instead of ${b.join(", ") || "(none)"}`);
  };
  same("access_scopes.scopes", list(production, "access_scopes", "scopes"), list(development, "access_scopes", "scopes"));
  same("access_scopes.optional_scopes", list(production, "access_scopes", "optional_scopes"), list(development, "access_scopes", "optional_scopes"));
  same("webhooks.api_version", [text(production, "webhooks", "api_version") ?? ""], [text(development, "webhooks", "api_version") ?? ""]);
  same("webhook subscriptions", subscriptionKeys(production, problems), subscriptionKeys(development));
  same("app_proxy prefix and subpath", [`${text(production, "app_proxy", "prefix")}/${text(production, "app_proxy", "subpath")}`], [`${text(development, "app_proxy", "prefix")}/${text(development, "app_proxy", "subpath")}`]);
  return problems;
}

/** The address the extensions are bundled with: the checked application_url's origin. */
export function extensionAppUrl(production: AppToml): string {
  const appUrl = text(production, "", "application_url");
  const checked = appUrl ? checkServiceBaseUrl(appUrl, STRICT_NETWORK) : null;
  if (!checked?.ok) throw new Error(`application_url is not a public https address: ${appUrl ?? "(missing)"}`);
  return checked.url.origin;
}
