// A deliberately small Liquid renderer for the extension's blocks, so browser tests
// serve the markup the blocks really produce (settings, escaping, translations,
// branches) instead of a hand-copied fixture. It knows only what the blocks use:
// {{ output | filters }}, if / elsif / else / unless, comment and schema tags,
// whitespace control. Anything else throws, so a block that grows beyond it makes
// the tests fail loudly rather than render something different from Shopify.
// Expressions are parsed by Shopify's own @shopify/liquid-html-parser.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toLiquidAST } from "@shopify/liquid-html-parser";

export const extensionDir = fileURLToPath(new URL("../../../extensions/referral-theme/", import.meta.url));

type Scope = Record<string, unknown>;
type Filter = (input: unknown, args: unknown[], named: Record<string, unknown>) => unknown;

type Token =
  | { kind: "text"; value: string }
  | { kind: "output"; markup: string }
  | { kind: "tag"; name: string; markup: string }
  | { kind: "raw"; name: string; body: string };

type Node =
  | { kind: "text"; value: string }
  | { kind: "output"; markup: string }
  | { kind: "raw"; name: string; body: string }
  | { kind: "if"; branches: { condition: string | null; negate: boolean; children: Node[] }[] };

export interface BlockSchema {
  name: string;
  target: string;
  stylesheet?: string;
  javascript?: string;
  settings: { id?: string; type: string; default?: unknown }[];
}

export const escapeHtml = (value: unknown): string =>
  String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

const TOKEN_RE =
  /\{%-?\s*(comment|schema|raw)\s*-?%\}([\s\S]*?)\{%-?\s*end\1\s*-?%\}|\{\{-?([\s\S]*?)-?\}\}|\{%-?\s*(\w+)([\s\S]*?)-?%\}/g;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  let trimNext = false;
  for (const match of source.matchAll(TOKEN_RE)) {
    const whole = match[0];
    let text = source.slice(last, match.index);
    if (trimNext) text = text.replace(/^\s+/, "");
    if (whole.startsWith("{{-") || whole.startsWith("{%-")) text = text.replace(/\s+$/, "");
    if (text) tokens.push({ kind: "text", value: text });
    trimNext = whole.endsWith("-}}") || whole.endsWith("-%}");
    last = match.index + whole.length;
    if (match[1]) tokens.push({ kind: "raw", name: match[1], body: match[2] });
    else if (match[3] !== undefined) tokens.push({ kind: "output", markup: match[3].trim() });
    else tokens.push({ kind: "tag", name: match[4], markup: match[5].replace(/-$/, "").trim() });
  }
  let rest = source.slice(last);
  if (trimNext) rest = rest.replace(/^\s+/, "");
  if (rest) tokens.push({ kind: "text", value: rest });
  return tokens;
}

function parse(tokens: Token[]): Node[] {
  const root: Node[] = [];
  const stack: { node: Extract<Node, { kind: "if" }>; close: string }[] = [];
  const current = () => {
    const top = stack.at(-1);
    return top ? top.node.branches.at(-1)!.children : root;
  };
  for (const token of tokens) {
    if (token.kind !== "tag") {
      current().push(token);
      continue;
    }
    const { name, markup } = token;
    if (name === "if" || name === "unless") {
      const node: Extract<Node, { kind: "if" }> = {
        kind: "if",
        branches: [{ condition: markup, negate: name === "unless", children: [] }],
      };
      current().push(node);
      stack.push({ node, close: `end${name}` });
    } else if (name === "elsif" || name === "else") {
      const top = stack.at(-1);
      if (!top) throw new Error(`liquid-lite: stray {% ${name} %}`);
      top.node.branches.push({ condition: name === "else" ? null : markup, negate: false, children: [] });
    } else if (name === "endif" || name === "endunless") {
      if (stack.pop()?.close !== name) throw new Error(`liquid-lite: unbalanced {% ${name} %}`);
    } else {
      throw new Error(`liquid-lite: unsupported tag {% ${name} %}`);
    }
  }
  if (stack.length) throw new Error("liquid-lite: unclosed if/unless");
  return root;
}

// ---- expressions (AST from @shopify/liquid-html-parser) ----

/* eslint-disable @typescript-eslint/no-explicit-any */
function evaluate(expr: any, scope: Scope): unknown {
  switch (expr.type) {
    case "String":
      return expr.value;
    case "Number":
      return Number(expr.value);
    case "LiquidLiteral":
      return expr.keyword === "blank" || expr.keyword === "empty" ? BLANK : expr.value;
    case "VariableLookup": {
      let value: unknown = expr.name === null ? scope : scope[expr.name];
      for (const lookup of expr.lookups) {
        const key = evaluate(lookup, scope);
        value = value == null ? undefined : (value as Record<string, unknown>)[String(key)];
      }
      return value;
    }
    case "Comparison": {
      const left = evaluate(expr.left, scope);
      const right = evaluate(expr.right, scope);
      const equal = left === BLANK ? isBlank(right) : right === BLANK ? isBlank(left) : left === right;
      if (expr.comparator === "==") return equal;
      if (expr.comparator === "!=") return !equal;
      throw new Error(`liquid-lite: unsupported comparator ${expr.comparator}`);
    }
    case "LogicalExpression": {
      const left = truthy(evaluate(expr.left, scope));
      return expr.relation === "and" ? left && truthy(evaluate(expr.right, scope)) : left || truthy(evaluate(expr.right, scope));
    }
    default:
      throw new Error(`liquid-lite: unsupported expression ${expr.type}`);
  }
}

const BLANK = Symbol("blank");
const isBlank = (value: unknown) =>
  value == null || value === false || (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0);
const truthy = (value: unknown) => value !== null && value !== undefined && value !== false;

function conditionAst(markup: string) {
  const ast = toLiquidAST(`{% if ${markup} %}{% endif %}`) as any;
  return ast.children[0].markup;
}

function outputAst(markup: string) {
  const ast = toLiquidAST(`{{ ${markup} }}`) as any;
  return ast.children[0].markup;
}

function toText(value: unknown): string {
  if (value == null || value === BLANK) return "";
  if (Array.isArray(value)) return value.map(toText).join("");
  return String(value);
}

function renderNodes(nodes: Node[], scope: Scope, filters: Record<string, Filter>): string {
  let html = "";
  for (const node of nodes) {
    if (node.kind === "text") html += node.value;
    else if (node.kind === "raw") continue; // comment and schema render nothing
    else if (node.kind === "output") {
      const variable = outputAst(node.markup);
      let value = evaluate(variable.expression, scope);
      for (const filter of variable.filters) {
        const fn = filters[filter.name];
        if (!fn) throw new Error(`liquid-lite: unsupported filter | ${filter.name}`);
        const args: unknown[] = [];
        const named: Record<string, unknown> = {};
        for (const arg of filter.args) {
          if (arg.type === "NamedArgument") named[arg.name] = evaluate(arg.value, scope);
          else args.push(evaluate(arg, scope));
        }
        value = fn(value, args, named);
      }
      html += toText(value);
    } else {
      const branch = node.branches.find((b) => {
        if (b.condition === null) return true;
        const result = truthy(evaluate(conditionAst(b.condition), scope));
        return b.negate ? !result : result;
      });
      if (branch) html += renderNodes(branch.children, scope, filters);
    }
  }
  return html;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

// ---- the extension's blocks ----

function translate(locale: Record<string, unknown>, key: string, named: Record<string, unknown>): string {
  let value: unknown = locale;
  for (const part of key.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  if (typeof value !== "string") throw new Error(`liquid-lite: missing translation ${key}`);
  // Like Shopify: translations are HTML-escaped unless the key ends in _html.
  const escape = key.endsWith("_html") ? (s: unknown) => String(s ?? "") : escapeHtml;
  return escape(value).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => escape(named[name]));
}

export function readBlock(name: string): { source: string; schema: BlockSchema } {
  const source = readFileSync(path.join(extensionDir, "blocks", `${name}.liquid`), "utf8");
  const raw = /\{%-?\s*schema\s*-?%\}([\s\S]*?)\{%-?\s*endschema\s*-?%\}/.exec(source);
  if (!raw) throw new Error(`${name}.liquid has no schema`);
  return { source, schema: JSON.parse(raw[1]) as BlockSchema };
}

export interface RenderOptions {
  /** Overrides of the block's settings; the rest come from the schema defaults. */
  settings?: Record<string, unknown>;
  /** Liquid globals (customer, shop, routes, request, ...), merged over sensible defaults. */
  globals?: Scope;
  /** The storefront's language (request.locale): which locales/<code>.json `| t` reads; English by default. */
  locale?: string;
}

export function renderBlock(name: string, options: RenderOptions = {}): { html: string; schema: BlockSchema } {
  const { source, schema } = readBlock(name);
  const code = options.locale ?? "en";
  const file = code === "en" ? "en.default.json" : `${code}.json`;
  const locale = JSON.parse(readFileSync(path.join(extensionDir, "locales", file), "utf8"));
  const settings: Record<string, unknown> = {};
  for (const setting of schema.settings) {
    if (!setting.id) continue;
    settings[setting.id] = setting.default ?? (setting.type === "checkbox" ? false : null);
  }
  Object.assign(settings, options.settings);
  const scope: Scope = {
    block: { id: "test-block", settings, shopify_attributes: "" },
    customer: null,
    shop: { name: "Demo Outfitters", currency: "USD" },
    request: { locale: { iso_code: code }, design_mode: false },
    routes: { root_url: "/", cart_url: "/cart", account_login_url: "/account/login" },
    ...options.globals,
  };
  const filters: Record<string, Filter> = {
    escape: (input) => escapeHtml(input),
    strip: (input) => toText(input).trim(),
    newline_to_br: (input) => toText(input).replace(/\r?\n/g, "<br />\n"),
    asset_url: (input) => `/assets/${toText(input)}`,
    t: (input, _args, named) => translate(locale, toText(input), named),
  };
  return { html: renderNodes(parse(tokenize(source)), scope, filters), schema };
}

/** A bare storefront page around rendered block markup, like a theme layout would give. */
export function storefrontPage(body: string, head = "", lang = "en"): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo Outfitters</title>
<style>
  body { margin: 0; font-family: "Helvetica Neue", Arial, sans-serif; color: #1f2a37; background: #fff; }
  main { max-width: 60rem; margin: 0 auto; padding: 2.5rem 1.5rem; }
</style>
${head}
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}
