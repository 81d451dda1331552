import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { transform } from "esbuild";
import { check, Severity, type Offense } from "@shopify/theme-check-node";
import { describe, expect, it } from "vitest";
import { extensionDir, readBlock, renderBlock } from "./liquid-lite";

const describeOffense = (o: Offense) =>
  `${Severity[o.severity]} ${o.check} ${path.relative(extensionDir, new URL(o.uri).pathname)}:${o.start.line + 1}: ${o.message}`;

describe("theme app extension referral-theme", () => {
  it("passes theme-check (theme-app-extension rules) without errors", async () => {
    const offenses = await check(extensionDir, path.join(extensionDir, ".theme-check.yml"));
    const errors = offenses.filter((o) => o.severity === Severity.ERROR);
    if (offenses.length > 0) console.warn(offenses.map(describeOffense).join("\n"));
    expect(errors.map(describeOffense)).toEqual([]);
  });

  it("keeps the tracking script under 3 KB minified", async () => {
    const source = readFileSync(path.join(extensionDir, "assets", "referral-tracking.js"), "utf8");
    const { code } = await transform(source, { minify: true, loader: "js", target: "es2019" });
    expect(Buffer.byteLength(code)).toBeGreaterThan(500); // the real script, not an empty file
    expect(Buffer.byteLength(code)).toBeLessThan(3 * 1024);
  });

  it("declares the embed and the block as agreed with the app", () => {
    const toml = readFileSync(path.join(extensionDir, "shopify.extension.toml"), "utf8");
    expect(toml).toMatch(/^type = "theme"$/m);
    expect(toml).toMatch(/^name = "Referral Bridge theme"$/m);

    const tracking = readBlock("referral-tracking").schema;
    expect(tracking.target).toBe("body");
    const defaults = Object.fromEntries(tracking.settings.filter((s) => s.id).map((s) => [s.id, s.default]));
    expect(defaults).toEqual({ code_param: "mbsy", campaign_param: "campaignid", lifetime_days: 30, attribution: "first_touch" });

    const links = readBlock("referral-links").schema;
    expect(links.target).toBe("section");
  });

  it("promises customers nothing by default that a campaign may not give", () => {
    // The campaign decides the rewards (or none for the friend); a default text can't know them.
    const texts = [
      readFileSync(path.join(extensionDir, "locales", "en.default.json"), "utf8"),
      readFileSync(path.join(extensionDir, "..", "customer-account", "locales", "en.default.json"), "utf8"),
    ].flatMap((file) => Object.values(JSON.parse(file) as Record<string, unknown>).flatMap((v) => (typeof v === "string" ? [v] : Object.values(v as Record<string, string>))));
    expect(texts.length).toBeGreaterThan(20);
    const promises = texts.filter((text) => /get a reward|so do you|first order|a gift/i.test(text));
    expect(promises).toEqual([]);
  });

  it("has a merchant-facing label for every schema translation key", () => {
    const schemaLocale = JSON.parse(readFileSync(path.join(extensionDir, "locales", "en.default.schema.json"), "utf8"));
    const lookup = (key: string) => key.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], schemaLocale);
    for (const name of ["referral-tracking", "referral-links"]) {
      const keys = [...readBlock(name).source.matchAll(/"t:([\w.]+)"/g)].map((m) => m[1]);
      expect(keys.length).toBeGreaterThan(5);
      for (const key of keys) expect(typeof lookup(key), `${name}: t:${key}`).toBe("string");
    }
  });
});

// theme-check limits only a block's `javascript` key; a <script> written by
// hand escapes it. Every script the extension loads, either way, is listed
// here with a budget (minified bytes) and must load deferred, or (the links
// block's) through its loader after the page's load event.
const SCRIPT_BUDGETS: Record<string, number> = {
  "referral-tracking.js": 3 * 1024,
  "referral-links.js": 5 * 1024,
};

describe("the scripts the theme extension loads", () => {
  const blocks = readdirSync(path.join(extensionDir, "blocks")).filter((file) => file.endsWith(".liquid"));
  const loaded = blocks.flatMap((file) => {
    const liquid = readFileSync(path.join(extensionDir, "blocks", file), "utf8");
    const byHand = [...liquid.matchAll(/<script\b([^>]*)>/g)].map((tag) => ({ file, tag: tag[1]!, asset: /\{\{\s*'([^']+)'\s*\|\s*asset_url\s*\}\}/.exec(tag[1]!)?.[1] }));
    const bySchema = readBlock(file.replace(/\.liquid$/, "")).schema as { javascript?: string };
    return [...byHand, ...(bySchema.javascript ? [{ file, tag: "defer", asset: bySchema.javascript }] : [])];
  });

  it("finds every script it loads, each deferred or loaded after the page", () => {
    expect(loaded.map((s) => s.asset).sort()).toEqual(Object.keys(SCRIPT_BUDGETS).sort());
    for (const script of loaded) {
      expect(script.tag, `${script.file} loads ${script.asset}`).toMatch(/\b(defer|async|data-referral-links-loader)\b/);
    }
  });

  it.each(Object.entries(SCRIPT_BUDGETS))("keeps %s within its budget (%d bytes minified)", async (asset, budget) => {
    const source = readFileSync(path.join(extensionDir, "assets", asset), "utf8");
    expect(Buffer.byteLength(source)).toBeLessThan(10_000);
    const { code } = await transform(source, { minify: true, loader: "js", target: "es2019" });
    expect(Buffer.byteLength(code)).toBeGreaterThan(500);
    expect(Buffer.byteLength(code)).toBeLessThanOrEqual(budget);
  });
});

// Lighthouse found the links block moving a product page's LCP (the product's
// photo) by 1.7 s: its stylesheet sat in the head, blocking the first paint,
// and its script and its request to the app proxy went out while the photo
// was still downloading. The block's own markup must give them no way back.
describe("the links block and the page's largest paint", () => {
  const signedIn = () => renderBlock("referral-links", { globals: { customer: { first_name: "Alice", email: "alice@example.com" } } });

  it("has no stylesheet for the head: its styles are in its own markup", () => {
    const { html, schema } = signedIn();
    expect(schema.stylesheet).toBeUndefined();
    expect(readdirSync(path.join(extensionDir, "assets")).filter((file) => file.endsWith(".css"))).toEqual([]);
    expect(html).not.toMatch(/<link\b/i);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    expect(style).toContain(".referral-links__card");
    expect(html.indexOf("<style>")).toBeLessThan(html.indexOf('class="referral-links"'));
  });

  it("paints its frame from Liquid with room reserved for the links while they load", () => {
    const { html } = signedIn();
    const app = /<div\s+class="referral-links__app"[^>]*>/.exec(html)?.[0] ?? "";
    expect(app).toContain('aria-busy="true"');
    expect(html).toMatch(/\.referral-links__app\[aria-busy='true'\]\s*\{\s*min-height:\s*\d+(\.\d+)?rem;/);
    expect(html).toMatch(/<p class="referral-links__status"[^>]*>Loading your referral links/);
  });

  it("leaves the links' layout and paint until they are near the screen, in the room it keeps for them", () => {
    // Their first layout (new text, a text field) was the block's largest task once its amounts came formatted.
    const style = /<style>([\s\S]*?)<\/style>/.exec(signedIn().html)?.[1] ?? "";
    const rule = /\.referral-links__app\s*\{([^}]*)\}/.exec(style)?.[1] ?? "";
    expect(rule).toMatch(/content-visibility:\s*auto;/);
    expect(rule).toMatch(/contain-intrinsic-size:\s*auto\s+\d+(\.\d+)?rem;/);
  });

  it("writes no script or request the browser would start during the page's own load", () => {
    const { html } = signedIn();
    // No <script src> for the preload scanner: the loader fetches the script on the load event.
    expect(html).not.toMatch(/<script\b[^>]*\ssrc=/i);
    const loader = /<script data-referral-links-loader data-src="\/assets\/referral-links\.js">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(loader).toContain("addEventListener('load'");
    expect(loader).toContain("requestIdleCallback");
    expect(html).not.toMatch(/rel="?(preload|prefetch|modulepreload)/);
  });
});
