// In the Shopify admin an embedded app cannot paint before App Bridge's script
// has run, and Shopify requires that script to be the first one in <head>,
// with nothing render-blocking before it. The production build's HTML, asked
// for the way the admin opens a page (a session token in the URL), says
// whether it is.
import "./browser-env";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { adminRequest } from "./admin-requests";
import { startTestAppServer, type AppServer } from "./app-server";

const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

let server: AppServer;

beforeAll(async () => {
  server = await startTestAppServer();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

beforeEach(async () => {
  await installShop();
});

/** The document of an embedded admin page, as the admin's iframe receives it. */
async function embeddedPage(pathname: string): Promise<string> {
  const signed = new URL((await adminRequest(pathname)).url);
  const response = await fetch(`${server.origin}${signed.pathname}${signed.search}`, {
    // Shopify's library answers a bot's user agent with 410 Gone; the admin is opened by people.
    headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36" },
    redirect: "manual",
  });
  expect(response.status, `GET ${pathname}`).toBe(200);
  return response.text();
}

interface Tag {
  name: string;
  attributes: Record<string, string>;
}

/** The opening tags of <head>, in document order. */
function headTags(html: string): Tag[] {
  const head = html.match(/<head[^>]*>([\s\S]*?)<\/head>/i)?.[1];
  if (head === undefined) throw new Error("The document has no <head>");
  return [...head.matchAll(/<([a-z][\w-]*)\b([^>]*)>/gi)].map(([, name, rest]) => ({
    name: name.toLowerCase(),
    attributes: Object.fromEntries([...rest.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map(([, key, value]) => [key.toLowerCase(), value ?? ""])),
  }));
}

/** Whether a tag in <head> holds up the first paint or runs a script. */
function blocksOrRuns(tag: Tag): boolean {
  if (tag.name === "script" || tag.name === "style") return true;
  if (tag.name !== "link") return false;
  const rel = tag.attributes.rel?.toLowerCase().split(/\s+/) ?? [];
  return rel.includes("stylesheet") || rel.includes("modulepreload") || rel.includes("preload");
}

describe("App Bridge first", () => {
  it.each(["/app", "/app/commissions", "/app/data-requests"])("%s loads App Bridge as the first script of <head>, with nothing render-blocking before it", async (pathname) => {
    // GIVEN an installed shop WHEN the admin opens the page
    const html = await embeddedPage(pathname);
    const tags = headTags(html);

    // THEN the first script of <head> is App Bridge's, loaded the classic, blocking way
    const first = tags.findIndex((tag) => tag.name === "script");
    expect(first, "<head> has no script: is App Bridge's added in <body>?").toBeGreaterThanOrEqual(0);
    expect(tags[first].attributes.src).toBe(APP_BRIDGE_URL);
    expect(tags[first].attributes).not.toHaveProperty("async");
    expect(tags[first].attributes).not.toHaveProperty("defer");
    expect(tags[first].attributes).not.toHaveProperty("type");
    // and no stylesheet, preload or other script comes before it
    expect(tags.slice(0, first).filter(blocksOrRuns)).toEqual([]);
    // and App Bridge knows the app by its API key
    expect(tags.slice(0, first)).toContainEqual({ name: "meta", attributes: { name: "shopify-api-key", content: process.env.SHOPIFY_API_KEY } });
    // and it is loaded once, not again by AppProvider in <body>
    expect(html.split(`src="${APP_BRIDGE_URL}"`).length - 1).toBe(1);
  });
});

describe("clickjacking", () => {
  it("lets only the shop's own admin frame an admin page", async () => {
    const signed = new URL((await adminRequest("/app")).url);
    const response = await fetch(`${server.origin}${signed.pathname}${signed.search}`, {
      headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36" },
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    const ancestors = response.headers.get("content-security-policy")?.match(/frame-ancestors ([^;]+)/)?.[1]?.trim().split(/\s+/);
    expect(ancestors).toEqual(expect.arrayContaining([`https://${TEST_SHOP}`, "https://admin.shopify.com"]));
    // Besides those, only Shopify's own admin hosts (its library adds its development ones), never any site.
    for (const ancestor of ancestors ?? []) expect(ancestor).toMatch(/^https:\/\/([\w*-]+\.)*(myshopify\.com|shopify\.com|myshopify\.io|shop\.dev|spin\.dev)$/);
    expect(ancestors).not.toContain("*");
  });
});
