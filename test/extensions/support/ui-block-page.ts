// Renders a checkout or customer account UI extension block in a plain page:
// the block's entry bundled as the CLI would (esbuild, Preact's JSX, APP_URL
// fixed at build time), a stand-in of the `shopify` global the host gives it
// (i18n from the extension's locale file, a session token, settings), and
// look-alikes of the Polaris web components that print their texts (a heading,
// a field's label) so a screenshot and a test can read them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const extensions = fileURLToPath(new URL("../../../extensions/", import.meta.url));

/** The entry module, bundled into one ES module whose default export renders the block. */
export async function bundleBlock(entry: string, appUrl: string): Promise<string> {
  const result = await build({
    entryPoints: [`${extensions}${entry}`],
    bundle: true,
    write: false,
    format: "esm",
    target: "es2020",
    jsx: "automatic",
    jsxImportSource: "preact",
    define: { "process.env.APP_URL": JSON.stringify(appUrl) },
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

/** The extension's texts in one language, as Shopify picks the file: `<code>.json`, English from `en.default.json`. */
export function localeTexts(extension: string, language: string): Record<string, string> {
  const file = language === "en" ? "en.default.json" : `${language}.json`;
  return JSON.parse(readFileSync(`${extensions}${extension}/locales/${file}`, "utf8"));
}

// Look-alikes of the host's components: texts the host would draw from attributes are drawn here by CSS.
const COMPONENT_STYLES = `
  body { margin: 0; padding: 24px; font-family: system-ui, "Noto Sans", "Noto Sans CJK JP", sans-serif; color: #1f2a37; background: #f4f4f5; }
  s-section { display: block; max-width: 560px; padding: 20px; border-radius: 12px; background: #fff; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  s-section::before { content: attr(heading); display: block; margin-bottom: 12px; font-size: 1.2em; font-weight: 600; }
  s-stack { display: flex; flex-direction: column; gap: 10px; }
  s-stack[direction="inline"] { flex-direction: row; flex-wrap: wrap; align-items: center; gap: 14px; }
  s-paragraph, s-text, s-heading { display: block; }
  s-heading { font-weight: 600; }
  s-text[type="strong"] { font-weight: 600; }
  s-text[color="subdued"] { color: #6b7280; }
  s-text-field { display: block; }
  s-text-field::before { content: attr(label); display: block; margin-bottom: 4px; font-size: .85em; }
  s-text-field::after { content: attr(value); display: block; padding: 8px 10px; border: 1px solid #c4c4c8; border-radius: 8px; }
  s-button { display: inline-block; padding: 8px 14px; border-radius: 8px; background: #1f2a37; color: #fff; font-weight: 600; }
  s-link { color: #1d4ed8; text-decoration: underline; }
  s-spinner::before { content: attr(accessibilitylabel); }
  s-clipboard-item { display: none; }
`;

export interface BlockPageOptions {
  language: string;
  texts: Record<string, string>;
  /** The bundle's URL, on the page's origin. */
  bundleUrl: string;
  settings?: Record<string, unknown>;
  currency?: string;
}

/** The page: the `shopify` stand-in, then the bundle's default export called like the host calls it. */
export function blockPage(options: BlockPageOptions): string {
  const standin = `
    const texts = ${JSON.stringify(options.texts)};
    const language = ${JSON.stringify(options.language)};
    const currency = ${JSON.stringify(options.currency ?? "EUR")};
    window.shopify = {
      sessionToken: { get: async () => "header.payload.signature" },
      settings: { value: ${JSON.stringify(options.settings ?? {})} },
      shop: { storefrontUrl: location.origin },
      i18n: {
        // Like the host's: a key's text with each {{name}} replaced; a missing key shows as itself, marked.
        translate(key, replacements = {}) {
          const text = texts[key];
          if (typeof text !== "string") return "[missing " + key + "]";
          return text.replace(/\\{\\{\\s*(\\w+)\\s*\\}\\}/g, (whole, name) => (name in replacements ? String(replacements[name]) : whole));
        },
        formatCurrency: (value) => new Intl.NumberFormat(language, { style: "currency", currency }).format(value),
        formatNumber: (value) => new Intl.NumberFormat(language).format(value),
      },
    };`;
  return extensionPage({ language: options.language, title: "block", styles: COMPONENT_STYLES, standin, bundleUrl: options.bundleUrl });
}

/**
 * A page that runs an extension's bundle over a stand-in of its host's
 * `shopify` global, and marks the body `data-rendered` once it has rendered.
 */
export function extensionPage(page: { language: string; title: string; styles: string; standin: string; bundleUrl: string }): string {
  return `<!doctype html>
<html lang="${page.language}">
<head><meta charset="utf-8"><title>${page.title}</title><style>${page.styles}</style></head>
<body>
<script>${page.standin}</script>
<script type="module">
  import render from ${JSON.stringify(page.bundleUrl)};
  render().then(() => document.body.setAttribute("data-rendered", ""));
</script>
</body>
</html>`;
}

/** The texts the page shows, in order: text nodes and the attributes the look-alikes print. */
export const VISIBLE_TEXTS = `(() => {
  const out = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent.trim();
      if (text) out.push(text);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE || node.tagName === "SCRIPT" || node.tagName === "STYLE") return;
    if (getComputedStyle(node).display === "none") return;
    for (const name of ["heading", "label", "accessibilitylabel"]) if (node.hasAttribute(name)) out.push(node.getAttribute(name));
    for (const child of node.childNodes) walk(child);
    if (node.tagName === "S-TEXT-FIELD" && node.hasAttribute("value")) out.push(node.getAttribute("value"));
  };
  walk(document.body);
  return out;
})()`;
